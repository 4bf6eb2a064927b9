"""Whether a solo record appears in the public solo ranking (`SoloRecord.public`): the
player's own choice (`PlayerSettings.public_solo_records`, off by default), copied onto
their records so the ranking reads one partial index. Kept equal on both sides: a record
written by `leaderboards.recording` takes the player's current choice, and a change of
the settings (saved or deleted) updates the player's records (`connect`, at start-up)."""
from django.db.models.signals import post_delete, post_save

from accounts.player_settings import PlayerSettings


def chosen(user_id):
    """True when the user `user_id` chose to show their solo records publicly (bool)."""
    return PlayerSettings.objects.filter(user_id=user_id, public_solo_records=True).exists()


def _settings_saved(sender, instance, **kwargs):
    from leaderboards.models import SoloRecord

    public = bool(instance.public_solo_records)
    SoloRecord.objects.filter(user_id=instance.user_id).exclude(public=public).update(public=public)


def _settings_deleted(sender, instance, **kwargs):
    from leaderboards.models import SoloRecord

    # no settings row is the default: private
    SoloRecord.objects.filter(user_id=instance.user_id, public=True).update(public=False)


def connect():
    """Follow the saves and deletions of PlayerSettings (called once by the app's ready)."""
    post_save.connect(_settings_saved, sender=PlayerSettings, dispatch_uid="solo_visibility_saved")
    post_delete.connect(_settings_deleted, sender=PlayerSettings, dispatch_uid="solo_visibility_deleted")
