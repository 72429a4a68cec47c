import pytest

pytest_plugins = ["gomoku_shared.testing.plugin"]

# Modules that start served processes, browsers or whole events take minutes each; run them
# first so that, on several workers, the quick modules fill the gaps instead of trailing.
SLOW_FOLDERS = ("tests/e2e/", "tests/distributed/", "tests/browser/", "tests/fuzz/", "tests/cross_service/")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: `make test-fast` leaves these out
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow folders' tests are `slow` whole (served processes, browsers, whole events)."""
    for item in items:
        if item.nodeid.startswith(SLOW_FOLDERS):
            item.add_marker(pytest.mark.slow)


def _module_weight(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    if path.startswith(SLOW_FOLDERS):
        return 0
    return 1 if item.get_closest_marker("infra") else 2


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")  # after the plugin marked infra
def slow_modules_first(items: list[pytest.Item]) -> None:
    weight: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        weight[module] = min(weight.get(module, 2), _module_weight(item))
    # a stable sort by module weight keeps every module's tests together and in their order
    items.sort(key=lambda item: weight[item.nodeid.split("::", 1)[0]])
