"""REST API for cardrooms, tables, settings changes, sessions, seats, stacks and the rotation,
by area. Views only parse, call one service and answer; the services check the rules (R16,
R17)."""
