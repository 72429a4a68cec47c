"""Partners service: partner accounts, their OAuth client credentials, signed access tokens and an audit of every use."""
