"""Errors raised by the registration domain (refusals are *results*, not errors)."""


class RegistrationError(Exception):
    """A command that cannot be applied to the current state (unknown entry, wrong status...)."""


class UnknownSection(RegistrationError):
    pass


class UnknownEntry(RegistrationError):
    pass
