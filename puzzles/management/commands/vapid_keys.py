from __future__ import annotations

from django.core.management.base import BaseCommand

from puzzles.accounts.push import new_vapid_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push reminders, as the two environment variables."

    def handle(self, *args, **options) -> None:
        public, private = new_vapid_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
