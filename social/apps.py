"""The social app: friends' presence, challenges and notifications, above games and accounts."""
from django.apps import AppConfig


class SocialConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "social"
    verbose_name = "Friends and notifications"

    def ready(self):
        from social import signals  # noqa: F401 - connects the receivers
