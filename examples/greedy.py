"""A Wizard bot in Python, in twenty lines, for every command that takes bots (docs/bots.md):

atout tournament wizard --bots "py:examples/greedy.py:Greedy,heuristic" --deals 20
atout tournament wizard --bots "cmd:atout serve-bot examples/greedy.py:Greedy,heuristic"
"""

import atout


def strength(card: str) -> int:
    return 99 if card == "Z" else 0 if card == "N" else int(card[1:])


class Greedy(atout.Bot):
    """Bids its Wizards and queens or better; then wins tricks while it needs them, else ducks."""

    name = "greedy"

    def choose(self, view: atout.View) -> int:
        table, texts = view.to_dict(), {view.text(a): a for a in view.legal_actions}
        if table["phase"] == "bid":
            return texts.get(f"bid {sum(strength(c) >= 12 for c in table['hand'])}", view.legal_actions[0])
        plays = [t for t in texts if t.startswith("play ")]
        if not plays:  # choosing trump: any colour
            return self.rng.choice(view.legal_actions)
        short = table["tricks_won"][view.seat] < table["bids"][view.seat]
        return texts[(max if short else min)(plays, key=lambda t: strength(t.split()[1]))]
