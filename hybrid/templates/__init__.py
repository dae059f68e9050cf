"""Contract templates: the template files' rules, their outline schemas, loading, fields and skeleton text."""
