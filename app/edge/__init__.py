"""The edge: pure ASGI middleware between the network and the app."""
