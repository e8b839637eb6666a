"""Writes for tables, by area (design.md: services own the writes).

Every service runs in one transaction, locks what it changes, and appends its audit event
last (after its own locks, so lock order is always: table or seating rows, then the chain).
"""
