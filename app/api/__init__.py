"""The REST API v1 (``/api/v1``): JSON routes over the service layer, errors as problem+json."""
