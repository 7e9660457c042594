"""wixoss-judge: WIXOSS rulings as scenarios that a rules engine replays."""

__version__ = "0.1.0"
