"""Awards domain (RULES §5, AWD-1..AWD-8, AWD-QUAL): pure dataclasses and functions.

Inputs: :class:`SectionStandings` of :class:`StandingRow` (final standings of a section),
:class:`BoardRecord` (team boards), and configuration from :mod:`.config`.

Entry points for the service layer:

- :func:`compute_section_awards` — AWD-1/2/4/5 for one section → :class:`SectionAwards`
- :func:`team_ranking` + :func:`team_ranking_standings` — AWD-6
- :func:`best_boards` — AWD-7
- :func:`select_qualifiers` / :func:`stage_qualification` / :func:`select_squad` — AWD-QUAL
- :func:`compute_event_awards` — all of the above for a finished stage
- :mod:`.publication` — AWD-8 plain rows and CSV; :func:`compare_section_awards` — corrections

The single rules are exported too (:func:`award_count`, :func:`section_prizes`,
:func:`section_titles`, …) for handlers that need only one of them.
"""
from .best_board import (
    BestBoardResult, BoardCandidate, BoardGame, BoardRecord, Outcome, best_boards,
    board_record_from_games, is_eligible,
)
from .config import (
    AwardBand, AwardCountRule, BestBoardConfig, BoardCriterion, ConfigError, EventAwardsConfig,
    PlaceAwardsConfig, PlaceItems, PrizeConfig, PrizeTable, QualificationRule, SectionAwardConfig,
    SeededList, SeededPlayer, SharedPlacePolicy, SquadRule, TeamScoreComponent, TeamScoreMeasure,
    TeamScoreRule, TeamTiebreak, TeamTieKind, TitleBand, TitleTable,
)
from .corrections import AwardsDiff, EntrantChange, RowChange, compare_rows, compare_section_awards
from .model import (
    Gender, SectionStandings, StandingRow, StandingsError, TieGroup, rank_within, tie_groups,
    validate_places,
)
from .money import format_fen, split_fen, yuan
from .places import PlaceAward, award_count, awarded_places, is_cancelled, place_awards, unresolved_ties
from .prizes import PrizeAward, section_prizes, total_by_entrant
from .publication import (
    BestBoardRow, CertificateData, CertificateWording, PrizeListRow, TeamRankingRow, TitleListRow,
    best_board_certificates, best_board_rows, best_boards_csv, certificates, certificates_csv, plain,
    prize_list, prizes_csv, section_publication, standings_csv, team_ranking_csv, team_ranking_rows, title_list, titles_csv, to_csv,
)
from .qualification import (
    QualifierSelection, Qualifier, SquadSelection, StageQualification, TieFlag, select_qualifiers,
    select_squad, stage_qualification,
)
from .section import EntrantAwards, EventAwards, SectionAwards, compute_event_awards, compute_section_awards
from .team_score import TeamMember, TeamRanking, TeamScore, UnscoredUnit, team_ranking, team_ranking_standings
from .titles import TitleAward, section_titles

__all__ = [
    "AwardBand", "AwardCountRule", "AwardsDiff", "BestBoardConfig", "BestBoardResult",
    "BestBoardRow", "BoardCandidate", "BoardCriterion", "BoardGame", "BoardRecord",
    "CertificateData", "CertificateWording", "ConfigError", "EntrantAwards", "EntrantChange",
    "EventAwards", "EventAwardsConfig", "Gender", "Outcome", "PlaceAward", "PlaceAwardsConfig",
    "PlaceItems", "PrizeAward", "PrizeConfig", "PrizeListRow", "PrizeTable",
    "QualificationRule", "Qualifier", "QualifierSelection", "RowChange", "SectionAwardConfig",
    "SectionAwards", "SectionStandings", "SeededList", "SeededPlayer", "SharedPlacePolicy",
    "SquadRule", "SquadSelection", "StageQualification", "StandingRow", "StandingsError",
    "TeamMember", "TeamRanking", "TeamRankingRow", "TeamScore", "TeamScoreComponent",
    "TeamScoreMeasure", "TeamScoreRule", "TeamTieKind", "TeamTiebreak", "TieFlag", "TieGroup",
    "TitleAward", "TitleBand", "TitleListRow", "TitleTable", "UnscoredUnit", "award_count",
    "awarded_places", "best_board_certificates", "best_board_rows", "best_boards",
    "best_boards_csv", "board_record_from_games", "certificates", "certificates_csv",
    "compare_rows", "compare_section_awards", "compute_event_awards", "compute_section_awards",
    "format_fen", "is_cancelled", "is_eligible", "place_awards", "plain", "prize_list",
    "prizes_csv", "rank_within", "section_prizes", "section_publication", "section_titles",
    "select_qualifiers", "select_squad", "split_fen", "stage_qualification", "standings_csv",
    "team_ranking", "team_ranking_csv", "team_ranking_rows", "team_ranking_standings",
    "tie_groups", "title_list", "titles_csv", "to_csv", "total_by_entrant", "unresolved_ties",
    "validate_places", "yuan",
]
