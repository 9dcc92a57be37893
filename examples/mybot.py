"""A complete external atout bot in about twenty lines (docs/bots.md).

Run it against the built-in bots:
    atout simulate wizard --players 4 --bots "cmd:python examples/mybot.py,heuristic,heuristic,heuristic"
It bids 1 when it holds a Wizard (else 0) and otherwise plays its first legal card.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "act":
        continue  # "start": nothing to set up
    view, legal = message["view"], message["legal"]
    texts = [a["text"] for a in legal]
    if any(t.startswith("bid") for t in texts):
        want = "bid 1" if "Z" in view.get("hand", []) else "bid 0"
        choice = want if want in texts else texts[0]
    else:
        choice = texts[0]
    print(json.dumps({"action": choice}), flush=True)
