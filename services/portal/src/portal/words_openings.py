"""The 26 openings of the professional rules (PLAY-2) in both languages, by code."""

from __future__ import annotations

#: the 26 openings of the professional rules by code: Chinese and international names
OPENINGS: dict[str, tuple[str, str]] = {
    "D1": ("寒星", "Kansei"),
    "D2": ("溪月", "Keigetsu"),
    "D3": ("疏星", "Sosei"),
    "D4": ("花月", "Kagetsu"),
    "D5": ("残月", "Zangetsu"),
    "D6": ("雨月", "Ugetsu"),
    "D7": ("金星", "Kinsei"),
    "D8": ("松月", "Shogetsu"),
    "D9": ("丘月", "Kyugetsu"),
    "D10": ("新月", "Shingetsu"),
    "D11": ("瑞星", "Zuisei"),
    "D12": ("山月", "Sangetsu"),
    "D13": ("游星", "Yusei"),
    "I1": ("长星", "Chosei"),
    "I2": ("峡月", "Kyogetsu"),
    "I3": ("恒星", "Kosei"),
    "I4": ("水月", "Suigetsu"),
    "I5": ("流星", "Ryusei"),
    "I6": ("云月", "Ungetsu"),
    "I7": ("浦月", "Hogetsu"),
    "I8": ("岚月", "Rangetsu"),
    "I9": ("银月", "Gingetsu"),
    "I10": ("明星", "Meisei"),
    "I11": ("斜月", "Shagetsu"),
    "I12": ("名月", "Meigetsu"),
    "I13": ("彗星", "Suisei"),
}
