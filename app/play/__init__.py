"""The use cases both front doors share: create, claim, command, view, events, record.

Like a game "master": authenticate the seat, refuse what is not allowed now with a typed reason,
call the rules, commit once, return the caller's view. Never imports a web framework.
"""
