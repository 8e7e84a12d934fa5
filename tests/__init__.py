"""pingduel tests."""
