"""The words of the staff console's round, section and awards actions (zh-CN, en); merged into
the table of ``i18n`` (kept apart so the console's words do not crowd the pages' table)."""

from __future__ import annotations

from .words_slips import SLIPS
from .words_slot import SLOT

WORDS: dict[str, tuple[str, str]] = {
    "staff.section_console": ("组别管理", "Section console"),
    "staff.hold": ("轮次公布前复核", "Review rounds before they start"),
    "staff.hold_help": (
        "开启后，下一轮的对阵先作为草案保存，裁判复核（可调整）后再公布。",
        "When on, the next round is paired as a draft; the arbiter reviews (and may adjust) it, then publishes it.",
    ),
    "staff.hold_on": ("开启复核", "Hold the next rounds"),
    "staff.hold_off": ("取消复核", "Stop holding"),
    "staff.hold_is_on": ("当前：下一轮先作草案", "Now: the next round is held as a draft"),
    "staff.hold_is_off": ("当前：对阵编排后直接公布", "Now: rounds are published as paired"),
    "staff.draft_round": ("待公布的草案", "Draft round to review"),
    "staff.no_draft": ("当前没有待公布的草案。", "There is no draft round to review."),
    "staff.adjust": ("调整对阵", "Adjust the pairings"),
    "staff.adjust_help": (
        "改动任意台次的先列、后列选手后保存；对阵服务按编排规则检查（如不得重复对阵），不合规则拒绝。",
        "Change the first or second player of any board and save; the pairing service checks the "
        "pairing rules (no repeat pairing, etc.) and refuses an illegal pairing.",
    ),
    "staff.save_pairings": ("保存调整", "Save the adjustment"),
    "staff.publish_round": ("公布本轮", "Publish the round"),
    "staff.bye_player": ("轮空", "Bye"),
    "staff.byes": ("轮空与退赛", "Byes and withdrawals"),
    "staff.byes_listed": ("已登记的轮空", "Byes requested"),
    "staff.no_byes": ("没有登记的轮空。", "No byes requested."),
    "staff.add_bye": ("登记轮空", "Add a bye"),
    "staff.bye_round": ("轮次（空：下一轮）", "Round (blank: the next one)"),
    "staff.withdraw": ("登记退赛", "Withdraw a player"),
    "staff.after_round": ("最后参赛轮次（空：已公布的最后一轮）", "Last round played (blank: the last published)"),
    "staff.reason": ("原因", "Reason"),
    "staff.player": ("选手", "Player"),
    "staff.ties": ("同分决定", "Tie decisions"),
    "staff.no_ties": ("没有需要决定的同分。", "No ties to decide."),
    "staff.tie_places": ("第 {a}–{b} 名", "Places {a}–{b}"),
    "staff.place_n": ("第 {n} 名", "Place {n}"),
    "staff.decide_tie": ("确定名次", "Decide the order"),
    "staff.tie_playoff": ("加赛中，结果出来后自动决定。", "A playoff is being played; it decides the order."),
    "staff.decided_by": ("决定方式", "Decided by"),
    "staff.section_link": ("组别管理（复核、轮空、退赛、同分）", "Section console (review, byes, withdrawals, ties)"),
    "bye_kind.requested": ("申请轮空（得半分）", "requested (half point)"),
    "bye_kind.forced": ("裁判安排轮空（得一分）", "forced by the arbiter (full point)"),
    "bye_kind.pairing": ("编排轮空", "pairing bye"),
    "bye_kind.absent": ("缺席", "absent"),
    "tie_status.open": ("待决定", "to decide"),
    "tie_status.playing": ("加赛中", "playoff under way"),
    "tie_status.decided": ("已决定", "decided"),
    "tie_action.playoff": ("加赛", "playoff"),
    "tie_action.arbiter": ("裁判决定", "arbiter's decision"),
    "decided_by.playoff": ("加赛", "playoff"),
    "decided_by.arbiter": ("裁判", "arbiter"),
    "done.hold_on": ("已开启：下一轮先作草案，复核后公布。", "On: the next round waits as a draft for review."),
    "done.hold_off": ("已取消复核：下一轮编排后直接公布。", "Off: the next rounds are published as paired."),
    "done.published": ("本轮已公布。", "The round is published."),
    "done.adjusted": ("对阵已调整并通过检查。", "The pairings were adjusted and passed the checks."),
    "done.bye": ("轮空已登记。", "The bye is recorded."),
    "done.withdrawn": ("退赛已登记，此后不再编排该选手。", "Withdrawn: the player is not paired any more."),
    "done.tie": ("名次已确定。", "The order is decided."),
    "refusal.illegal_pairing": (
        "这样的对阵不符合编排规则（例如两人已经对阵过，或有人重复出现），未作改动。",
        "That pairing breaks the pairing rules (for example the two have met already, or a player "
        "appears twice); nothing was changed.",
    ),
    "refusal.round_published": (
        "这一轮已经公布，对阵不能再改。",
        "That round is published already; its pairings can no longer change.",
    ),
    "refusal.round_not_published": ("这一轮还没有公布。", "That round is not published yet."),
    "refusal.no_such_round": ("本组别没有这一轮。", "The section has no such round."),
    "refusal.section_finished": ("本组别已经赛完。", "The section has finished."),
    "refusal.unknown_entrant": ("本组别没有这名选手。", "There is no such player in the section."),
    "refusal.tie_not_found": ("没有这个同分。", "There is no such tie."),
    "refusal.tie_decided": ("这个同分已经决定了。", "That tie is already decided."),
    "refusal.playoff_running": ("加赛正在进行，由加赛决定名次。", "A playoff is under way: it decides the order."),
    "refusal.bad_order": (
        "名次必须恰好列出全部同分选手，每人一次。",
        "The order must list every tied player exactly once.",
    ),
    "staff.awards": ("奖项公布", "Awards publication"),
    "staff.awards_help": (
        "组别赛完后，奖项由奖项服务按最终排名自动公布；更正成绩后也会自动重新公布。这里可按最终排名再公布一次：内容有变化才生成新版本。",
        "When a section completes, the awards service publishes its awards from the final standings, "
        "and again after a correction. Here they can be published again from the final standings: a "
        "new revision only when the content changed.",
    ),
    "staff.publication": ("当前公布", "Current publication"),
    "staff.revision_n": ("第 {n} 版", "revision {n}"),
    "staff.not_published": ("尚未公布", "not published"),
    "staff.publish": ("公布奖项", "Publish the awards"),
    "staff.republish": ("重新公布", "Republish"),
    "staff.no_sections": ("还没有开赛的组别。", "No section has started yet."),
    "done.awards_published": ("奖项已公布：第 {n} 版。", "Awards published: revision {n}."),
    "done.awards_unchanged": (
        "按最终排名核对无变化，当前公布（第 {n} 版）保持不变。",
        "Nothing changed from the final standings: the current publication (revision {n}) stands.",
    ),
    "refusal.section_not_completed": (
        "该组别还没有赛完，没有可以公布的最终排名。",
        "The section has not completed: there are no final standings to publish.",
    ),
    "staff.new_event": ("新建赛事", "New event"),
    "staff.new_event_help": (
        "从规程预设新建赛事；名称和其他设置可以改写（其他设置以 JSON 对象填写，键名与预设相同）。仅运营人员可以新建。",
        "Create an event from a preset; its name and any other setting may be overridden (other settings "
        "as a JSON object, keys as in the preset). Operators only.",
    ),
    "staff.preset": ("规程预设", "Preset"),
    "staff.event_name_zh": ("赛事名称（中文，可不填）", "Event name in Chinese (optional)"),
    "staff.event_name_en": ("赛事名称（英文，可不填）", "Event name in English (optional)"),
    "staff.overrides": ("其他改写（JSON，可不填）", "Other overrides (JSON, optional)"),
    "staff.create_event": ("新建", "Create"),
    "refusal.overrides_not_json": (
        '其他改写必须是一个 JSON 对象，例如 {"registration": {"id_number_required": false}}；未新建。',
        'Other overrides must be a JSON object, e.g. {"registration": {"id_number_required": false}}; nothing was created.',
    ),
    "refusal.event_exists": ("已有这个赛事代码，请换一个。", "That event code is taken; choose another."),
    # PAIR-2 at closing: the numbers come from the refusal's details (registration)
    "refusal.swiss_rounds_exceed_field": (
        "{section_name_zh}：{entrants} 名选手的积分编排制最多只能保证 {max_rounds} 轮不重复对阵（PAIR-2），"
        "所选的 {rounds} 轮太多。请把轮数改为 {max_rounds} 轮或更少，或改用单循环；本阶段尚未截止。",
        "{section_name}: a Swiss of {entrants} players can be guaranteed at most {max_rounds} rounds without "
        "a rematch (PAIR-2); {rounds} rounds are too many. Choose {max_rounds} rounds or fewer, or a round "
        "robin; the stage was not closed.",
    ),
    "staff.rounds_preset": ("轮数（不填按规程）", "Rounds (empty: as the rules say)"),
    "refusal.late_entry_refused": ("现在不能补报。", "A late entry is not possible now."),
    # PLAY-9: records the rules engine flagged, for the arbiter
    "done.record_accepted": ("棋谱已按原样接受，说明已记录。", "Record accepted as it stands; the note is kept."),
    "staff.record_flags": ("待裁判处理的棋谱", "Flagged records"),
    "staff.no_flags": ("没有待处理的棋谱。", "No flagged record."),
    "staff.accept_record": ("按原样接受", "Accept as it stands"),
    "staff.flag_ply": ("第 {n} 手", "Move {n}"),
    "staff.source": ("来源", "Source"),
    "source.entered": ("赛后录入", "Entered after the game"),
    "source.recorder": ("现场记录员", "Live recorder"),
    "flag.forbidden": ("黑棋禁手", "Black's forbidden move"),
    "flag.illegal_opening": ("开局不合规", "Illegal opening"),
    "flag.after_end": ("连五后仍有落子", "A move after five in a row"),
    "flag.slip_disagrees": ("棋谱与成绩单不符", "The record contradicts the slip"),
    "flag.occupied": ("落在已有棋子处", "A move on an occupied point"),
    "flag.not_your_turn": ("行棋顺序错误", "A move out of turn"),
    "flag.wrong_phase": ("步骤顺序错误", "A step out of order"),
}
WORDS.update(SLIPS)
WORDS.update(SLOT)
