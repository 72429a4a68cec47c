"""Every word the pages show, in Chinese (the default) and English.

Values from the services (statuses, reasons, tiebreak names) are looked up as ``group.value``;
a value this table does not know is shown as "—" rather than as a raw identifier.
"""

from __future__ import annotations

from .words_awd import APPEALS_AND_HONOURS
from .words_openings import OPENINGS

LANGS = ("zh", "en")
DEFAULT = "zh"

_T: dict[str, tuple[str, str]] = {
    # page chrome
    "site": ("五子棋赛事平台", "Gomoku tournaments"),
    "lang.switch": ("English", "中文"),
    "home": ("首页", "Home"),
    "events": ("赛事", "Events"),
    "no_events": ("暂无公开赛事。", "No events are listed."),
    "open_event": ("查看赛事", "Open an event"),
    "event_code": ("赛事代码", "Event code"),
    "go": ("前往", "Go"),
    "stage": ("阶段", "Stage"),
    "stages": ("比赛阶段", "Stages"),
    "sections": ("组别", "Sections"),
    "section": ("组别", "Section"),
    "starts_on": ("开始日期", "Starts on"),
    "registration_closes": ("报名截止", "Registration closes"),
    "registration_opens": ("报名开始", "Registration opens"),
    "timezone": ("时区", "Time zone"),
    # EVT-7: the schedule on the event page
    "schedule": ("赛程", "Schedule"),
    "schedule_ics": ("订阅日历（.ics）", "Calendar (.ics)"),
    "arrival_by": ("报到截止", "Arrival (check-in) by"),
    "technical_meeting": ("赛前技术会", "Technical meeting"),
    "stage_dates": ("比赛日期", "Dates"),
    "starts_at": ("开始时间", "Starts"),
    "delayed_from": ("原定 {at}，已推迟：{reason}", "delayed from {at}: {reason}"),
    "no_schedule": ("本阶段尚未公布赛程。", "No schedule is published for this stage."),
    "status": ("状态", "Status"),
    "format": ("赛制", "Format"),
    "rounds": ("轮次", "Rounds"),
    "round": ("第 {n} 轮", "Round {n}"),
    "round_of": ("第 {n}/{total} 轮", "Round {n} of {total}"),
    "kind": ("类别", "Kind"),
    "track": ("规则", "Rules"),
    "pairings": ("对阵与成绩", "Pairings and results"),
    "standings": ("排名", "Standings"),
    "crosstable": ("对阵总表", "Cross table"),
    "board_no": ("台次", "Board"),
    "first_player": ("先列棋手", "First-listed"),
    "second_player": ("后列棋手", "Second-listed"),
    "result": ("结果", "Result"),
    "reason": ("原因", "Reason"),
    "game": ("对局", "Game"),
    "watch": ("观看", "Watch"),
    "bye": ("轮空", "Bye"),
    "not_paired": ("本轮尚未编排。", "This round is not paired yet."),
    "no_standings": ("尚无排名。", "No standings yet."),
    "place": ("名次", "Place"),
    "start_no": ("序号", "No."),
    "name": ("姓名", "Name"),
    "unit": ("单位", "Unit"),
    "played": ("局数", "Games"),
    "decided_by": ("同分决定", "Tie decided by"),
    "shared_place": ("并列", "shared"),
    "after_round": ("第 {n} 轮后", "after round {n}"),
    "black": ("黑方", "Black"),
    "white": ("白方", "White"),
    "to_move": ("轮到", "To act"),
    "moves": ("手数", "Moves"),
    "show_numbers": ("显示手数", "Show move numbers"),
    "last_move": ("最后一手", "Last move"),
    "opening": ("开局", "Opening"),
    "live": ("直播中", "Live"),
    "reconnecting": ("正在重新连接…", "Reconnecting…"),
    "game_over": ("对局结束", "Game over"),
    "over_the_board": (
        "现场对局：记录员现场录入棋谱，成绩以裁判确认的成绩单为准",
        "Played over the board: moves entered live by the recorder, the result from the arbiters' confirmed slip",
    ),
    "winner": ("胜者", "Winner"),
    "unavailable": ("服务暂时不可用，请稍后刷新。", "A service is unavailable; please reload later."),
    "not_found": ("找不到该页面。", "This page does not exist."),
    "points_short": ("分", "pts"),
    "back_to_section": ("返回组别", "Back to the section"),
    "back_to_event": ("返回赛事", "Back to the event"),
    "awards_published": ("获奖名单已公布（第 {n} 版）", "Awards published (revision {n})"),
    # live boards, the wall, replay
    "board": ("棋盘", "Board"),
    "wall": ("棋盘墙", "Board wall"),
    "no_games": ("暂无对局。", "No games yet."),
    "game_no": ("第 {n} 局", "game {n}"),
    "offers_n": ("五手 {n} 打", "{n} fifth-move offers"),
    "swapped": ("已交换", "swapped"),
    "not_swapped": ("未交换", "not swapped"),
    "fifth_offers": ("五手打点", "Fifth-move offers"),
    "fifth_chosen": ("选定第五手", "Fifth move chosen"),
    "forbidden_points": ("黑方禁手点", "Black's forbidden points"),
    "foul.double_three": ("三三", "double three"),
    "foul.double_four": ("四四", "double four"),
    "foul.overline": ("长连", "overline"),
    "draw_offered": ("提和", "Draw offered by"),
    "replay": ("复盘", "Replay"),
    "first_move": ("开始", "Start"),
    "previous_move": ("上一手", "Previous move"),
    "next_move": ("下一手", "Next move"),
    "last_move_btn": ("终局", "End"),
    "jump_to": ("跳到第几手", "Go to move"),
    "download": ("下载棋谱", "Download the record"),
    "record.psq": ("PSQ 格式", "PSQ"),
    "record.notation": ("坐标记谱", "Notation"),
    "record.json": ("JSON", "JSON"),
    # a player's page
    "results_by_round": ("各轮成绩", "Results by round"),
    "no_results": ("尚无成绩。", "No results yet."),
    "round_col": ("轮次", "Round"),
    "colour_order": ("先后", "Listed"),
    "opponent": ("对手", "Opponent"),
    "points_col": ("得分", "Points"),
    "first_short": ("先", "first"),
    "second_short": ("后", "second"),
    "win": ("胜", "win"),
    "loss": ("负", "loss"),
    "draw": ("和", "draw"),
    "games": ("对局", "Games"),
    # awards
    "awards": ("获奖名单", "Awards"),
    "no_awards": ("获奖名单尚未公布。", "No awards are published yet."),
    "revision_n": ("第 {n} 版", "revision {n}"),
    "revision": ("版本", "Revision"),
    "published_at": ("公布时间", "Published"),
    "field_size": ("参赛 {n} 名", "{n} entrants"),
    "prize_total": ("奖金合计", "Prize money in total"),
    "currency.CNY": ("元", "CNY"),
    "cancelled_section": ("本组取消", "section cancelled"),
    "award_items": ("奖励", "Awards"),
    "prize": ("奖金（元）", "Prize (CNY)"),
    "title": ("段级位", "Title"),
    "finishers_get": ("完赛棋手均获", "Every finisher receives"),
    "prize_money": ("奖金", "Prize money"),
    "prize_table": ("奖项", "Prize table"),
    "rank": ("名次", "Rank"),
    "amount": ("金额", "Amount"),
    "titles": ("授予段级位", "Titles"),
    "team_scores": ("团体成绩", "Team scores"),
    "score": ("成绩", "Score"),
    "members": ("计分队员", "Counted players"),
    "best_boards": ("最佳台次", "Best boards"),
    "wins_played": ("胜局 / 对局", "Wins / games"),
    "squad": ("集训队", "Training squad"),
    "squad_role.member": ("队员", "member"),
    "squad_role.substitute": ("替补", "substitute"),
    "qualifiers": ("晋级名单", "Qualifiers"),
    "qualifiers_waiting": ("待裁判决定同分", "waiting for an arbiter's tie decision"),
    "qualified": ("晋级", "qualified"),
    "substitute": ("替补", "substitute"),
    "publication_history": ("公布记录", "Publication history"),
    "supersedes_n": ("（取代第 {n} 版）", "(replaces revision {n})"),
    "superseded_by_n": ("已被第 {n} 版取代", "replaced by revision {n}"),
    "current_revision": ("现行版本", "current"),
    "item.certificate": ("获奖证书", "certificate"),
    "item.medal": ("奖牌", "medal"),
    "item.trophy": ("奖杯", "trophy"),
    "item.prize_money": ("奖金", "prize money"),
    "item.finisher_medal": ("完赛纪念奖牌", "finisher's medal"),
    "item.commemorative_certificate": ("纪念证书", "commemorative certificate"),
    "item.best_board": ("最佳台次证书", "best board certificate"),
    # the staff console
    "staff.console": ("裁判工作台", "Staff console"),
    "staff.sign_in": ("工作人员登录", "Staff sign-in"),
    "staff.sign_in_help": (
        "裁判和赛事运营人员使用本人的接口密钥登录；所有操作以本人的身份记录。",
        "Arbiters and operators sign in with their own API key; every action is recorded under it.",
    ),
    "staff.api_key": ("接口密钥", "API key"),
    "staff.sign_out": ("退出登录", "Sign out"),
    "staff.public_pages": ("公开页面", "Public pages"),
    "staff.entries": ("报名名单", "Entries"),
    "staff.evidence_queue": ("证明材料审核", "Evidence review"),
    "staff.check_in": ("检录与缺席", "Check-in and no-shows"),
    "staff.close_stage": ("截止本阶段并确定组别", "Close the stage"),
    "staff.close_help": (
        "规程未定赛制或轮数的组别可在此选择（积分编排制的轮数不能多于该组人数能保证的轮数）；其余按规程。",
        "Where the rules leave the format or the rounds open, choose them here (a Swiss may not have more "
        "rounds than its field can be guaranteed); the others follow the rules.",
    ),
    "staff.format_preset": ("按规程", "as the rules say"),
    "staff.results": ("成绩录入与更正", "Enter or correct results"),
    "staff.all": ("全部", "all"),
    "staff.filter": ("筛选", "Filter"),
    "staff.pending_evidence": ("待审材料", "evidence pending"),
    "staff.shown_of": ("显示 {n} / {total} 条", "{n} of {total} shown"),
    "staff.id_number": ("证件号（遮蔽）", "ID number (masked)"),
    "staff.checked_in": ("检录", "Checked in"),
    "staff.present": ("到场", "Present"),
    "staff.no_show": ("缺席", "No-show"),
    "staff.save_check_in": ("保存检录", "Save check-in"),
    "staff.no_evidence": ("没有待审的材料。", "No evidence to review."),
    "staff.clause": ("适用条款", "Clause"),
    "staff.submitted": ("提交于", "submitted"),
    "staff.note": ("备注", "Note"),
    "staff.approve": ("通过", "Approve"),
    "staff.reject": ("不通过", "Reject"),
    "staff.enter_result": ("录入 / 更正", "Enter / correct"),
    "staff.save": ("保存", "Save"),
    "service_said": ("服务说明", "The service said"),
    "role.arbiter": ("裁判", "arbiter"),
    "role.operator": ("运营", "operator"),
    "refusal.csrf": (
        "表单已失效或来源不明，操作未执行。请返回刷新页面后再试。",
        "The form has expired or did not come from this site; nothing was done. Go back, reload the page and try again.",
    ),
    "refusal.invalid_api_key": ("密钥无效，请检查后重试。", "That key is not valid; check it and try again."),
    "refusal.missing_api_key": ("请填写接口密钥。", "Enter your API key."),
    "refusal.not_staff": (
        "该密钥不是裁判或运营人员的密钥，不能登录工作台。",
        "That key is not an arbiter's or operator's key: it cannot sign in to the console.",
    ),
    "refusal.forbidden_role": (
        "您的身份无权执行此操作（需要其他角色）。",
        "Your role may not do this (another role is needed).",
    ),
    "refusal.validation_error": (
        "填写的内容不完整或格式不对，请检查后重试。",
        "Something in the form is missing or not in the right form; check it and try again.",
    ),
    "refusal.game_over": ("该对局已经结束。", "That game is already over."),
    "refusal.round_not_found": ("没有这一轮。", "There is no such round."),
    "refusal.pairing_not_found": ("没有这个对阵。", "There is no such pairing."),
    "refusal.unknown_stage": ("没有这个阶段。", "There is no such stage."),
    "refusal.stage_closed": ("本阶段已经截止。", "This stage is already closed."),
    "refusal.already_decided": ("已经处理过了。", "This was already decided."),
    "refusal.event_not_found": ("没有这个赛事。", "There is no such event."),
    "refusal.not_found": ("要处理的对象不存在。", "What you acted on does not exist."),
    "refusal.conflict": ("当前状态下不能这样操作。", "This cannot be done in the present state."),
    "refusal.unavailable": (
        "服务暂时不可用，操作未执行，请稍后再试。",
        "A service is unavailable; nothing was done. Try again later.",
    ),
    "refusal.other": ("操作被拒绝。", "The action was refused."),
    "done.check_in": ("已保存：到场 {n} 人，缺席 {m} 人。", "Saved: {n} present, {m} no-shows."),
    "done.evidence_approve": (
        "材料已通过，相关报名已重新审核。",
        "Approved; the entries it supports were judged again.",
    ),
    "done.evidence_reject": (
        "材料未通过，相关报名已重新审核。",
        "Rejected; the entries it supports were judged again.",
    ),
    "done.result": ("成绩已保存，排名随之更新。", "Result saved; the standings follow."),
    "done.closed": ("本阶段已截止", "The stage is closed"),
    "entry_status.accepted": ("已接受", "accepted"),
    "entry_status.accepted_pending_evidence": ("已接受（待审材料）", "accepted, evidence pending"),
    "entry_status.refused": ("未接受", "refused"),
    "entry_status.pending_review": ("待审核", "pending review"),
    "entry_status.waiting_list": ("候补", "waiting list"),
    "entry_status.withdrawn": ("已退赛", "withdrawn"),
    "entry_status.no_show": ("缺席", "no-show"),
    "entry_status.moved": ("已调组", "moved"),
    "evidence_status.pending": ("待审", "pending"),
    "evidence_status.approved": ("已通过", "approved"),
    "evidence_status.rejected": ("未通过", "rejected"),
    "evidence_status.all": ("全部", "all"),
    "evidence_kind.household_registration": ("户籍证明", "household registration"),
    "evidence_kind.residence_permit": ("居住证", "residence permit"),
    "evidence_kind.social_insurance": ("社保缴纳证明", "social insurance record"),
    "evidence_kind.student_status": ("学籍证明", "student status"),
    "evidence_kind.grade_certificate": ("段级位证书", "grade certificate"),
    "evidence_kind.result_certificate": ("成绩证明", "result certificate"),
    "evidence_kind.past_result": ("既往成绩证明", "past result"),
    "staff.documents_shown": ("已出示的证件（逗号分隔）", "Documents shown (comma separated)"),
    "staff.override": ("裁判准予（迟到或证件不全）", "Arbiter admits (late or documents missing)"),
    "evidence_kind.employment": ("工作证明", "employment record"),
    "evidence_kind.representation_proof": ("代表资格证明", "representation proof"),
    "evidence_kind.id_card": ("身份证", "ID card"),
    "result.first_forfeit_win": ("先列胜（对方弃权）", "first-listed wins by forfeit"),
    "result.second_forfeit_win": ("后列胜（对方弃权）", "second-listed wins by forfeit"),
    # printouts
    "pdf.page": ("第 {n} 页", "page {n}"),
    "pdf.printouts": ("打印（PDF）", "Printouts (PDF)"),
    "pdf.pairing_sheet": ("第 {n} 轮对阵表", "Round {n} pairings"),
    "pdf.result_slips": ("第 {n} 轮记录单", "Round {n} result slips"),
    "pdf.slips_short": ("记录单", "result slips"),
    "pdf.first_black": ("先列（先行）", "First-listed (moves first)"),
    "pdf.second_white": ("后列", "Second-listed"),
    "pdf.colour_note": (
        "先列棋手第一局先行（无禁手规则执黑；专业规则为暂定黑方，经开局交换决定执色）。",
        "The first-listed player moves first in game 1 (Black under free rules; the tentative Black under professional rules, where the opening's swap decides the colours).",
    ),
    "pdf.slip": ("对局记录单", "Result slip"),
    "pdf.win_draw_loss": ("胜 □ 和 □ 负 □", "W □ D □ L □"),
    "pdf.signature": ("签名", "Signature"),
    "pdf.result_line": (
        "结果：______ : ______    手数：______    结束方式：______________",
        "Result: ______ : ______    Moves: ______    How it ended: ______________",
    ),
    "pdf.arbiter_line": (
        "裁判签名：________________    时间：________________",
        "Arbiter: ________________    Time: ________________",
    ),
    "pdf.place_line": ("在{section}比赛中获得第 {n} 名", "placed {n} in {section}"),
    "pdf.title_line": ("授予{title}", "awarded the title {title}"),
    "pdf.finisher_line": ("参加{section}比赛并完成全部对局", "took part in {section} and played every round"),
    "pdf.best_board_line": ("{section}第 {n} 台最佳台次", "best board {n} of {section}"),
    "pdf.no_font": (
        "未安装中文字体，无法打印。请安装 fonts-wqy-microhei。",
        "No Chinese font is installed, so nothing can be printed: install fonts-wqy-microhei.",
    ),
    "certificates": ("证书", "Certificates"),
    # statuses
    "status.open": ("报名中", "Registration open"),
    "status.awaiting_qualifiers": ("等待晋级名单", "Awaiting qualifiers"),
    "status.ready": ("待开赛", "Ready"),
    "status.closed": ("报名已截止", "Entries closed"),
    "status.pending": ("未开始", "Not started"),
    "status.waiting": ("等待中", "Waiting"),
    "status.running": ("进行中", "In progress"),
    "status.completed": ("已结束", "Completed"),
    "status.cancelled": ("已取消", "Cancelled"),
    "status.merged": ("已合并", "Merged"),
    "status.awaiting_playoff": ("等待加赛", "Awaiting a playoff"),
    "status.awaiting_arbiter": ("等待裁判决定", "Awaiting the arbiter"),
    "status.held": ("暂缓公布", "Held for review"),
    "status.draft": ("草案", "Draft"),
    "status.published": ("已公布", "Published"),
    "status.started": ("进行中", "Under way"),
    "status.complete": ("已完赛", "Complete"),
    "status.active": ("对弈中", "In play"),
    "status.finished": ("已结束", "Finished"),
    "status.created": ("未开始", "Not started"),
    # formats, kinds, tracks
    "format.swiss": ("瑞士制", "Swiss"),
    "format.round_robin": ("循环赛", "Round robin"),
    "kind.individual": ("个人赛", "Individual"),
    "kind.team": ("团体赛", "Team"),
    "track.free": ("无禁手", "Free rules"),
    "track.professional": ("专业规则（有禁手）", "Professional (renju) rules"),
    "gender.male": ("男", "male"),
    "gender.female": ("女", "female"),
    "gender.mixed": ("不限", "mixed"),
    # results of a pairing and of a game
    "result.first_wins": ("先列胜", "first-listed wins"),
    "result.second_wins": ("后列胜", "second-listed wins"),
    "result.draw": ("和棋", "draw"),
    "result.double_forfeit": ("双方负", "both lose"),
    "result.black": ("黑胜", "Black wins"),
    "result.white": ("白胜", "White wins"),
    "result.none": ("无结果", "no result"),
    "result_source.game": ("对局结果", "from the game"),
    "result_source.arbiter": ("裁判判定", "arbiter's decision"),
    "reason.five": ("成五", "five in a row"),
    "reason.resignation": ("认输", "resignation"),
    "reason.resign": ("认输", "resignation"),
    "reason.time_forfeit": ("超时", "time forfeit"),
    "reason.flag": ("超时", "time forfeit"),
    "reason.time": ("超时", "time forfeit"),
    "reason.forbidden": ("禁手", "forbidden move"),
    "reason.no_show": ("未到场", "no-show"),
    "reason.double_no_show": ("双方未到场", "both absent"),
    "reason.draw_agreed": ("协议和棋", "draw agreed"),
    "reason.draw": ("和棋", "draw"),
    "reason.board_full": ("棋盘下满", "board full"),
    "reason.both_passed": ("双方弃权", "both passed"),
    "reason.arbiter": ("裁判判定", "arbiter's decision"),
    "reason.both_flags": ("双方超时", "both flags fell"),
    "reason.forfeit": ("弃权", "forfeit"),
    "reason.agreement": ("协议和棋", "draw agreed"),
    "reason.draw_agreement": ("协议和棋", "draw agreed"),
    "reason.passes": ("双方连续弃着", "both passed"),
    "reason.draw_passes": ("双方连续弃着", "both passed"),
    "reason.full_board": ("棋盘下满", "board full"),
    "reason.draw_full_board": ("棋盘下满", "board full"),
    "reason.draw_both_flags": ("双方超时", "both flags fell"),
    "reason.round_forfeit": ("整轮弃权", "round forfeited"),
    "reason.bye": ("轮空", "bye"),
    "decided_by.tiebreak": ("对比分", "tiebreak"),
    "decided_by.playoff": ("加赛", "playoff"),
    "decided_by.arbiter": ("裁判决定", "arbiter"),
    "decided_by.shared": ("并列", "shared place"),
    # phases of a game
    "phase.opening": ("开局阶段", "opening"),
    "phase.swap": ("交换选择", "swap choice"),
    "phase.offers": ("五手打点", "fifth-move offers"),
    "phase.choose": ("选择打点", "choosing the fifth move"),
    "phase.move": ("行棋", "play"),
    "phase.move4": ("第四手", "fourth move"),
    "phase.move6": ("第六手", "sixth move"),
    "phase.play": ("行棋", "play"),
    "phase.over": ("已结束", "over"),
    "phase.waiting": ("等待入座", "waiting for the players"),
    # tiebreaks (PAIR-7, PAIR-10)
    "tiebreak.points": ("大分", "Points"),
    "tiebreak.buchholz": ("对手分", "Buchholz"),
    "tiebreak.buchholz_small": ("小分", "Buchholz"),
    "tiebreak.buchholz_of_buchholz": ("小小分", "Buchholz of Buchholz"),
    "tiebreak.median_buchholz": ("中间对手分", "Median Buchholz"),
    "tiebreak.sonneborn_berger": ("小分", "Sonneborn-Berger"),
    "tiebreak.wins": ("胜局", "Wins"),
    "tiebreak.match_points": ("次分", "Match points"),
    "tiebreak.opp_match_points": ("对手次分", "Opponents' match points"),
    "tiebreak.median_opp_match_points": ("中间对手次分", "Median opponents' match points"),
    "tiebreak.total_game_points": ("团体总局分", "Total game points"),
    "tiebreak.sonneborn_berger_match": ("小分", "Sonneborn-Berger (match points)"),
    "tiebreak.board_1_points": ("第一台局分", "Board 1 points"),
    "tiebreak.board_2_points": ("第二台局分", "Board 2 points"),
    "tiebreak.board_3_points": ("第三台局分", "Board 3 points"),
}
_T.update(APPEALS_AND_HONOURS)


_ZH_NUMBERS = dict(enumerate("一二三四五六七八九", start=1))


def pick(lang: str | None) -> str:
    return lang if lang in LANGS else DEFAULT


class Words:
    """The words of one language, for templates: ``t("key", n=3)`` and ``v("status", value)``."""

    def __init__(self, lang: str) -> None:
        self.lang = pick(lang)
        self._i = LANGS.index(self.lang)

    def t(self, key: str, **fmt: object) -> str:
        pair = _T.get(key)
        text = pair[self._i] if pair else "—"
        return text.format(**fmt) if fmt else text

    def v(self, group: str, value: object) -> str:
        """A service's value in words; an unknown value is shown as a dash, never raw."""
        if value is None or value == "":
            return "—"
        return self.t(f"{group}.{value}")

    def opening(self, code: str | None, name: str | None) -> str:
        """One of the 26 openings by its code (D1..D13 direct, I1..I13 indirect)."""
        pair = OPENINGS.get(code or "")
        return pair[self._i] if pair else "—"

    def title(self, title: str | None) -> str:
        """A title by place (AWD-5) such as ``2d`` (two-dan) or ``3k`` (three-kyu)."""
        if not title or len(title) < 2 or not title[:-1].isdigit() or title[-1] not in "dk":
            return "—"
        n, unit = int(title[:-1]), title[-1]
        if self.lang == "en":
            return f"{n}-{'dan' if unit == 'd' else 'kyu'}"
        if unit == "d" and n == 1:
            return "初段"
        return f"{_ZH_NUMBERS.get(n, str(n))}{'段' if unit == 'd' else '级'}"

    def tiebreak(self, name: str, order: list[str]) -> str:
        # SZ online calls the Buchholz 小分 and its sum 小小分 (PAIR-7); elsewhere it is 对手分
        if name == "buchholz" and "buchholz_of_buchholz" in order:
            return self.t("tiebreak.buchholz_small")
        return self.v("tiebreak", name)


def known(key: str) -> bool:
    return key in _T


def _merge() -> None:
    from .console_words import WORDS

    _T.update(WORDS)


_merge()
