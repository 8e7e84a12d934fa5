"""The browser front door: server-rendered pages and htmx fragments over the same service layer."""
