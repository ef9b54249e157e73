"""Reaching a player where they are: one `Note` per player, carried by the channels they chose for its
kind (Discord direct message, phone or desktop push, email), each channel a module of this package with
`NAME`, `LABEL`, `can_reach(user)` and `deliver(user, note, uid)`; `dispatch.tell` picks and claims them.
"""
