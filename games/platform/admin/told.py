"""Stored texts (events, ledger reasons) as the host reads them, for the records' and the ledger's admins."""

from __future__ import annotations

from ..wording import names_for, plain


class ToldTexts:
    """A stored text as the host reads it (`wording`): the people it names as they are called now, its times
    in the host's zone. A list reads the names of all its rows at once."""

    told_field = "text"

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        rows = changelist.result_list  # its rows are read here once and kept for the page
        names = names_for(getattr(row, self.told_field) for row in rows)
        for row in rows:
            row.told = plain(getattr(row, self.told_field), names)
        return changelist

    def told(self, obj) -> str:
        if not hasattr(obj, "told"):
            text = getattr(obj, self.told_field)
            obj.told = plain(text, names_for([text]))
        return obj.told
