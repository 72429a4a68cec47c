# placeholder, replaced by the engine work
def implementation_name():
    return "cython"
