"""The computer opponent's core: strategies that play a seat from that seat's view alone.

A strategy is strictly a client of its seat (issue 17): it reads what ``app.rules.view(state,
seat)`` gives (the JSON the API's view returns) and answers with the JSON body of an ordinary
command. It never sees true enemy positions, orders or dice to come, so whatever it does, a
browser on the same seat could have done.
"""

from app.bot.cadet import Cadet
from app.bot.captain import Captain
from app.bot.naive import Naive
from app.bot.strategy import STRATEGIES, Strategy, strategy

__all__ = ["STRATEGIES", "Cadet", "Captain", "Naive", "Strategy", "strategy"]
