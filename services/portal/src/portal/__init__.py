"""The public web front: server-rendered pages over the other services' public HTTP APIs.

It holds no tournament rules: every figure on a page comes from a service's answer; this package
only chooses words (zh-CN by default, English by a switch) and lays the answers out.
"""
