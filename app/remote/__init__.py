"""``pingduel bot``: a strategy playing one seat of a game on any pingduel server, over HTTP.

The reference client of ``docs/api.md``: it reads its seat's view and events, waits on the
stream, and sends ordinary commands with ``at_seq`` and an ``Idempotency-Key``. It talks to
the server through the public API only (``make lint`` keeps it off the server's own rooms),
so whatever it does, any other client could do too.
"""
