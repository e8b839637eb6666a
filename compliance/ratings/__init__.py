"""Player ratings: a session per seating, and each player's figures per gaming day and month.

``figures`` holds what a rating is made of and how its figures are reckoned (exact, rounded to
the cent once, at the end); ``sessions`` reads them from the books (selectors only: nothing
here writes); ``rows`` lays them out for the CSV and the API.
"""

from .figures import Rating, SessionRating
from .sessions import PlayerRatings, player_ratings, session_rating

__all__ = ["PlayerRatings", "Rating", "SessionRating", "player_ratings", "session_rating"]
