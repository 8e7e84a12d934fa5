"""The referee's powers through the API and the dashboard."""
