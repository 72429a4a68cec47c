from collections.abc import Generator

import pytest

pytest_plugins = ["gomoku_shared.testing.plugin"]

# Modules that start served processes, browsers or whole events take minutes each; run them
# first so that, on several workers, the quick modules fill the gaps instead of trailing. The
# longest folders go first of all (a whole-platform fuzz run or a seed event takes minutes).
SLOW_FOLDERS = ("tests/fuzz/", "tests/e2e/", "tests/distributed/", "tests/cross_service/", "tests/browser/")


def _module_weight(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    for rank, folder in enumerate(SLOW_FOLDERS):
        if path.startswith(folder):
            return rank
    if item.get_closest_marker("slow"):
        return len(SLOW_FOLDERS)
    return len(SLOW_FOLDERS) + (1 if item.get_closest_marker("infra") else 2)


# pytest registers only functions named ``pytest_*`` of a conftest as hooks, so one wrapper does
# both jobs: the `slow` marks before every other implementation (before `-m` deselects: `make
# test-fast` leaves these out), the order after them all (after the plugin marked `infra`).
@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Generator[None, None, None]:
    """The slow folders' tests are `slow` whole (served processes, browsers, whole events), and
    the modules run slowest first."""
    for item in items:
        if item.nodeid.startswith(SLOW_FOLDERS):
            item.add_marker(pytest.mark.slow)
    result = yield
    weight: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        weight[module] = min(weight.get(module, len(SLOW_FOLDERS) + 2), _module_weight(item))
    # a stable sort by module weight keeps every module's tests together and in their order
    items.sort(key=lambda item: weight[item.nodeid.split("::", 1)[0]])
    return result
