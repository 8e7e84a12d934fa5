"""Live push: "game N is at seq S" hints fanned out to open streams, and the SSE endpoint."""
