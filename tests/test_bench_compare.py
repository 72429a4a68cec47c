"""bench.compare (issue 13: the benches before and after the refactor in one run): its parsers
read the key figures of each bench's printed table (samples captured from the benches, in the
format of this tree and of the baseline 735e4d1; the gameplay tables rebuilt by
``gameplay_output`` from their figures), fail loudly on an output they do not know, and the
options and the verdict follow the rules the command states. No timing is asserted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench import compare
from bench._compare_parsers import BenchOutputError, parse_engine, parse_gameplay_load, parse_pairing

ENGINE = """\
engine: compiled=gameplay.engine._core (_core.cpython-311-x86_64-linux-gnu.so), reference=gameplay.engine.reference; seed 2026
inputs: 300 positions, 39.1 stones on average; 182 recursive-check points; reference timed on 40 positions, 150 points, 3 games; best of 3 rounds
metric                                                   compiled   reference    ratio
classify, recursive-check points (calls/s)                417,740     2,188.1     191x
forbidden_points, mid-game stone list (positions/s)       258,841        34.5   7,510x
random self-play, legality-checked (moves/s)              304,273     7,592.1      40x
targets: forbidden_points >= 30,000/s (met), compiled >= 200x reference (met)
"""

PAIRING_NOW = """\
setup: 8 sections x 128 players, rounds 1-5 paired (7.9 s, not timed); load average 13.22
case                                       best ms  median ms  x baseline  goal ms  meets
baseline: port via gacrux TRF reader         159.2      180.4        1.00       46     NO
gacrux reference (direct structure)          134.7      147.5        0.82       46     NO
pair_swiss_round (fast engine)               100.5      112.8        0.62       46     NO
gacrux engine alone (floor)                  127.3      177.3        0.98       46     NO
8 sections, 1 round each                    1242.2     1525.3        8.45      370     NO
8 sections, pool x2 (wall)                  5667.7     5899.3       32.70      370     NO
wall-clock median over all timed runs: 292 ms (host load shows here)
per section, best ms: 116, 110, 159, 166, 119, 118, 159, 145  (worst 166, goal 46)
"""

PAIRING_735E4D1 = """\
setup: 8 sections x 128 players, rounds 1-5 paired (43.2 s, not timed); load average 10.99
case                                       best ms  median ms  x baseline  goal ms  meets
baseline: port via gacrux TRF reader         177.7      225.1        1.00      120     NO
pair_swiss_round (direct structure)          141.8      171.1        0.76      120     NO
gacrux engine alone (floor)                  131.5      152.8        0.68      120     NO
8 sections, 1 round each                    1509.1     1637.3        7.27     1000     NO
8 sections, pool x2 (wall)                  7159.6     7370.1       32.75     1000     NO
wall-clock median over all timed runs: 808 ms (host load shows here)
per section, best ms: 143, 137, 156, 165, 196, 142, 187, 202  (worst 202, goal 120)
"""


def gameplay_output(
    healthz: tuple[int, float, float, float, float],
    saturation: tuple[int, float, float, float, float],
    live: tuple[int, float, float, float, float],
    measured: str,
    moves: int,
    cpu: tuple[float, float],
    offered: int | None = None,
) -> str:
    """bench.gameplay_load's table as it prints it (4 live games, one service process): each row
    req/s, p50, p95, p99 and the ratio to the baseline; the live moves/s offered (``offered``: an
    output from before the offered/answered split has no such line); the service's own latency
    shares; the service CPU per move and cores busy at saturation."""
    rows = (("baseline GET /healthz", healthz), ("POST move, saturation", saturation), ("POST move, live 2000/s", live))
    table = [
        f"{label:<31}{rate:>9}{p50:>10.1f}{p95:>10.1f}{p99:>10.1f}{ratio:>10.2f}"
        for label, (rate, p50, p95, p99, ratio) in rows
    ]
    return "\n".join(
        [
            "gameplay load: 4 live games, 2 moves each, service processes=1, PostgreSQL + RabbitMQ, 2 cores",
            "                                   req/s    p50 ms    p95 ms    p99 ms     ratio",
            *table,
            *(
                [
                    f"live phase: {offered} moves/s offered (due in its window), {live[0]} answered in it "
                    "(the row's req/s; fewer when the service falls behind the games' schedule)"
                ]
                if offered is not None
                else []
            ),
            f"live phase as the service measured it (request in to answer out): {measured}",
            f"moves: {moves}  refused: 0  games ended by five: 4",
            f"service CPU at saturation: {cpu[0]:.2f} ms per move, {cpu[1]:.2f} cores busy on average",
            "goal: 2000 moves/s offered by 4 live games (think time 0.002 s), p99 < 50 ms: NOT MET",
            "",
        ]
    )


GAMEPLAY = gameplay_output(
    (799, 4.1, 12.8, 20.7, 1.00),
    (54, 133.0, 133.1, 133.1, 0.07),
    (430, 31.4, 58.6, 129.7, 0.54),
    "1.8% <= 5 ms, 5.8% <= 10 ms, 53.6% <= 25 ms, 95.2% <= 50 ms, 98.8% <= 100 ms",
    437,
    (2.50, 0.13),
    offered=2000,
)
GAMEPLAY_735E4D1 = gameplay_output(
    (879, 2.5, 13.4, 30.6, 1.00),
    (82, 78.8, 79.0, 79.0, 0.09),
    (431, 17.2, 32.5, 61.6, 0.49),
    "5.5% <= 5 ms, 31.6% <= 10 ms, 93.8% <= 25 ms, 98.2% <= 50 ms, 99.3% <= 100 ms",
    438,
    (1.25, 0.10),
)


def figures(parsed) -> dict[str, float]:
    return {figure.metric: figure.value for figure in parsed}


def test_engine_figures_are_the_compiled_rates():
    assert figures(parse_engine(ENGINE)) == {
        "engine classify calls/s": 417740.0,
        "engine forbidden_points positions/s": 258841.0,
        "engine random self-play moves/s": 304273.0,
    }
    assert all(figure.higher_is_better for figure in parse_engine(ENGINE))


def test_pairing_rows_of_both_formats_meet_on_the_same_metrics():
    now, before = figures(parse_pairing(PAIRING_NOW)), figures(parse_pairing(PAIRING_735E4D1))
    assert now["pairing pair_swiss_round median ms"] == 112.8
    assert before["pairing pair_swiss_round median ms"] == 171.1
    assert now["pairing 8 sections, pool x2 median ms"] == 5899.3
    assert set(before) == set(now) - {"pairing gacrux reference median ms"}
    assert not any(figure.higher_is_better for figure in parse_pairing(PAIRING_NOW))


def test_gameplay_load_figures_are_saturation_rate_and_live_latency():
    assert figures(parse_gameplay_load(GAMEPLAY)) == {
        "gameplay_load saturation moves/s": 54.0,
        "gameplay_load live moves/s": 430.0,
        "gameplay_load live p50 ms": 31.4,
        "gameplay_load live p99 ms": 129.7,
        "gameplay_load service CPU ms per move": 2.5,
        "gameplay_load live offered moves/s": 2000.0,
    }
    # an output from before the offered/answered split has no offered figure (its live row counted it)
    before = figures(parse_gameplay_load(GAMEPLAY_735E4D1))
    assert before["gameplay_load saturation moves/s"] == 82.0
    assert "gameplay_load live offered moves/s" not in before


@pytest.mark.parametrize("parser", [parse_engine, parse_pairing, parse_gameplay_load])
@pytest.mark.parametrize("output", ["", "Traceback (most recent call last):\n  boom\n", "metric  compiled\n"])
def test_an_unknown_output_fails_loudly(parser, output):
    with pytest.raises(BenchOutputError, match="output not recognised"):
        parser(output)


def test_a_table_without_its_key_rows_fails_loudly():
    no_live = "\n".join(line for line in GAMEPLAY.splitlines() if "live 2000" not in line)
    with pytest.raises(BenchOutputError, match="saturation and live rows are missing"):
        parse_gameplay_load(no_live)
    no_cpu = "\n".join(line for line in GAMEPLAY.splitlines() if not line.startswith("service CPU"))
    with pytest.raises(BenchOutputError, match="no line matching"):
        parse_gameplay_load(no_cpu)
    header_only = PAIRING_NOW.split("baseline: port")[0]
    with pytest.raises(BenchOutputError, match="no rows"):
        parse_pairing(header_only)


def test_sizing_options_reach_both_sides_or_neither():
    known = {"before": {"--games", "--seconds"}, "after": {"--games", "--seconds", "--fresh"}}
    argv, notes = compare.plan_args("gameplay_load", {"--games": "128", "--fresh": "1"}, known)
    assert argv == {"before": ["--games", "128"], "after": ["--games", "128"]}
    assert notes == ["bench.gameplay_load: --fresh not passed (the before tree's bench does not know it)"]


def test_a_rows_only_option_reaches_each_side_that_knows_it():
    known = {"before": set(), "after": {"--no-big", "--quick"}}
    argv, notes = compare.plan_args("pairing", {"--no-big": None, "--quick": None}, known)
    assert argv == {"before": [], "after": ["--no-big"]}
    assert len(notes) == 1 and "--quick not passed" in notes[0]


def test_the_benches_of_this_tree_declare_the_options_compare_passes():
    here = compare.current_tree()
    assert {"--games", "--moves", "--replicas", "--rate", "--seconds", "--seed"} <= compare.bench_options(
        here, "gameplay_load"
    )
    assert {"--no-big", "--quick"} <= compare.bench_options(here, "pairing")
    assert "--quick" in compare.bench_options(here, "engine")


def test_runs_are_interleaved_so_each_side_goes_first_as_often():
    assert compare.interleaved(1) == ["before", "after"]
    assert compare.interleaved(3) == ["before", "after", "after", "before", "before", "after"]


def test_the_verdict_uses_the_direction_and_the_noise_band():
    slower = compare.Row("pairing x median ms", False, [100.0, 104.0], [130.0, 128.0])
    ratio, band, verdict = compare.judge(slower, 0.05)
    assert verdict == "REGRESSION" and ratio == pytest.approx(129 / 102) and band == 0.05  # the floor
    noisy = compare.Row("gameplay_load live p99 ms", False, [50.0, 90.0], [80.0, 75.0])
    assert compare.judge(noisy, 0.05)[1:] == (pytest.approx(40 / 70), "no regression")  # within the spread
    faster = compare.Row("engine classify calls/s", True, [100.0], [150.0])
    assert compare.judge(faster, 0.05) == (1.5, 0.05, "better")
    assert compare.judge(compare.Row("pairing new median ms", False, [], [1.0]), 0.05)[2] == "only after"


def fake_tree(tmp_path, source: str) -> compare.Tree:
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "__init__.py").write_text("")
    (tmp_path / "bench" / "engine.py").write_text(source)
    return compare.Tree("before", tmp_path, Path(sys.executable), "a fake tree")


def test_a_bench_printing_something_else_stops_the_comparison_loudly(tmp_path):
    tree = fake_tree(tmp_path, "print('engine: a table of another shape')\n")
    with pytest.raises(compare.CompareError, match="before tree: bench.engine: output not recognised"):
        compare.run_bench(tree, "engine", [])


def test_a_failing_bench_stops_the_comparison_with_its_output(tmp_path):
    tree = fake_tree(tmp_path, "print('set-up went wrong')\nraise SystemExit(3)\n")
    with pytest.raises(compare.CompareError, match=r"(?s)failed in the before tree \(rc 3\).*set-up went wrong"):
        compare.run_bench(tree, "engine", [], keep=tmp_path / "outputs")
    assert "set-up went wrong" in (tmp_path / "outputs" / "01-engine-before.txt").read_text()  # kept for a look


def test_the_report_shows_every_metric_and_every_run(tmp_path, capsys):
    tree = fake_tree(tmp_path, f"print({ENGINE!r})\n")
    runs = [compare.run_bench(tree, "engine", []) for _ in range(2)]
    runs[1].side = "after"
    assert compare.report(compare.collect(runs), runs, 0.05, 1) == []
    out = capsys.readouterr().out
    assert "engine classify calls/s" in out and "1.00" in out and "no regression" in out
    assert "one run per side" in out and "  2  after   engine" in out
