"""Issue 27 finding 7 in Chromium: every page is served with a Content-Security-Policy without
inline script, and the pages' own scripts run under it. The browser reports every violation
(``securitypolicyviolation``); an inline script put into a page is refused (the policy is
enforced, and the listener sees it), while the sign-in form, the signed-in console and the
public start page log none, at desktop width and at 390 px. Staff pages may not be framed."""

from __future__ import annotations

import asyncio
import time

from browser_kit import OUT, chromium_page, console_signed_in

#: records every violation the page reports (added before any of the page's own scripts run)
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


async def _violations(page) -> list[str]:
    return await page.evaluate("window.__violations")


async def _until(page, expression: str, timeout_s: float = 10.0) -> None:
    """Poll ``expression`` from here (``page.wait_for_function`` would evaluate it in the page,
    which the policy under test refuses)."""
    end = time.monotonic() + timeout_s
    while not await page.evaluate(expression):
        assert time.monotonic() < end, f"{expression} still false after {timeout_s} s"
        await asyncio.sleep(0.05)


async def test_pages_run_under_their_csp_and_report_no_violation(served):
    for width in (1200, 390):
        async with chromium_page() as (page, problems):
            await page.set_viewport_size({"width": width, "height": 900})
            await page.add_init_script(LISTEN)
            answer = await page.goto(f"{served}/staff/sign-in")
            assert answer is not None
            policy = answer.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy
            assert "frame-ancestors 'none'" in policy and answer.headers["x-frame-options"] == "DENY"
            await page.screenshot(path=str(OUT / f"sign-in-csp-{width}.png"), full_page=True)
            # the policy is enforced: an inline script added to the page does not run, and the
            # listener sees the refusal (so an empty list below means something)
            ran = await page.evaluate(
                """() => { const s = document.createElement("script");
                           s.textContent = "window.__inline_ran = true"; document.body.appendChild(s);
                           return window.__inline_ran === true; }"""
            )
            await _until(page, "window.__violations.length > 0")
            assert ran is False and any(v.startswith("script-src") for v in await _violations(page))
            problems.clear()  # Chromium logs that refusal as a console error too

            # the sign-in form, the signed-in console and the public start page: no violation
            await page.goto(f"{served}/staff/sign-in")
            await console_signed_in(page, served, "/staff")
            assert await _violations(page) == []
            await page.goto(f"{served}/")
            assert await _violations(page) == []
            assert not [p for p in problems if "Content Security Policy" in p], problems
            # a page elsewhere cannot frame the console: the frame shows Chromium's error page
            await page.set_content(f'<iframe id="f" src="{served}/staff"></iframe>')
            frame = await (await page.wait_for_selector("#f")).content_frame()
            assert frame is not None
            await _until(page, "document.querySelector('#f').contentWindow !== null")
            assert frame.url.startswith("chrome-error://"), frame.url
