"""Learning from every solve: the annotated review of a solve (where the player stalled, what each
placement took, the mistakes) and the skill profile built from the reviews."""
