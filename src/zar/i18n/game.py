"""The words of play: the games, the seats, the seeds' messages word for word, the
buttons every front end shares, and the terminal's prompts."""

from __future__ import annotations

from collections.abc import Mapping

from zar.i18n.languages import Language

__all__ = ["HOT_DICE", "LAST_ROUND", "TURN_LOST", "WORDS"]

# The seeds' messages, word for word (outside browser tests rely on them).
TURN_LOST = "Tour perdu !"
HOT_DICE = "Dés chauds !"
LAST_ROUND = "Dernier tour !"
# The seed's new-game checkbox, word for word.
HUMANS_PLUS_AI = "Humains + 1 IA"

WORDS: Mapping[str, Mapping[Language, str]] = {
    # Games and seats
    "yams": {"tr": "Yams", "fr": "Yams", "en": "Yams"},
    "10000": {"tr": "10 000", "fr": "10 000", "en": "10,000"},
    "player-n": {"tr": "Oyuncu {n}", "fr": "Joueur {n}", "en": "Player {n}"},
    # The seeds' "IA" in the Turkish and French interfaces, as the original app shows it.
    "computer": {"tr": "IA", "fr": "IA", "en": "Computer"},
    # The seed's label word for word, first in its name; in Turkish and English its meaning.
    "humans-plus-ai": {"tr": f"{HUMANS_PLUS_AI} — İnsanlar ve bilgisayar", "fr": HUMANS_PLUS_AI,
                       "en": f"{HUMANS_PLUS_AI} — People and the computer"},
    "humans-plus-ai-about": {"tr": "Masaya bilgisayarı (IA) rakip olarak ekler",
                             "fr": "Ajoute l'ordinateur (IA) comme adversaire",
                             "en": "Adds the computer as an opponent"},
    # The seeds' messages
    # Word for word, and in the Turkish and English interfaces with their meaning beside.
    "turn-lost": {"tr": f"{TURN_LOST} — Tur kaybedildi", "fr": TURN_LOST,
                  "en": f"{TURN_LOST} — Turn lost"},
    "hot-dice": {"tr": f"{HOT_DICE} — Sıcak zar: altısı yeniden atılabilir", "fr": HOT_DICE,
                 "en": f"{HOT_DICE} — Hot dice: all six may be thrown again"},
    "last-round": {"tr": f"{LAST_ROUND} — Son tur", "fr": LAST_ROUND,
                   "en": f"{LAST_ROUND} — Last round"},
    "must-sacrifice": {
        "tr": "Açık hiçbir kutu puan getirmiyor: birini feda etmek gerekiyor",
        "fr": "Aucune case ouverte ne rapporte de points : il faut en sacrifier une",
        "en": "No open box scores: one must be sacrificed",
    },
    # Buttons and labels
    "throw": {"tr": "At", "fr": "Lancer", "en": "Throw"},
    "confirm-round": {"tr": "Turu onayla", "fr": "Valider le tour", "en": "Confirm round"},
    "bank": {"tr": "Kasaya yatır", "fr": "Mettre en banque", "en": "Bank"},
    "new-game": {"tr": "Yeni oyun", "fr": "Nouvelle partie", "en": "New game"},
    "round-of": {"tr": "Tur {round}/{rounds}", "fr": "Tour {round}/{rounds}",
                 "en": "Round {round}/{rounds}"},
    "turn-of": {"tr": "Sıra: {name}", "fr": "À {name} de jouer", "en": "{name}'s turn"},
    "throw-n-of-3": {"tr": "Atış {n}/3", "fr": "Lancer {n}/3", "en": "Throw {n}/3"},
    "dice": {"tr": "Zarlar", "fr": "Dés", "en": "Dice"},
    "upper-total": {"tr": "Üst toplam", "fr": "Total haut", "en": "Upper total"},
    "upper-bonus": {"tr": "Bonus (63)", "fr": "Bonus (63)", "en": "Bonus (63)"},
    "penta-bonus": {"tr": "Penta bonusu", "fr": "Bonus Penta", "en": "Penta bonus"},
    "total": {"tr": "TOPLAM", "fr": "TOTAL", "en": "TOTAL"},
    "target": {"tr": "Hedef", "fr": "Objectif", "en": "Target"},
    "banked": {"tr": "Kasa", "fr": "Banque", "en": "Banked"},
    "turn-points": {"tr": "Tur puanı: {points}", "fr": "Points du tour : {points}",
                    "en": "Turn points: {points}"},
    "risk": {"tr": "kaybetme riski {risk}", "fr": "risque de perdre {risk}",
             "en": "risk of losing {risk}"},
    "winner": {"tr": "Kazanan: {names}", "fr": "Gagnant : {names}", "en": "Winner: {names}"},
    "winners": {"tr": "Kazananlar: {names}", "fr": "Gagnants : {names}",
                "en": "Winners: {names}"},
    "game-over": {"tr": "Oyun bitti", "fr": "Partie terminée", "en": "Game over"},
    "and": {"tr": "ve", "fr": "et", "en": "and"},
    # Terminal play
    "yams-prompt": {
        "tr": "Tutulacak zarlar ve yeniden at (ör. 125, hepsini atmak için 0) "
              "ya da yazılacak kutunun harfi",
        "fr": "Dés à garder puis relancer (ex. 125, 0 pour tout relancer) "
              "ou la lettre de la case à remplir",
        "en": "Dice to keep, then throw again (e.g. 125, 0 to throw all) "
              "or the letter of the box to write",
    },
    "yams-prompt-last": {
        "tr": "Yazılacak kutunun harfi", "fr": "Lettre de la case à remplir",
        "en": "Letter of the box to write",
    },
    "farkle-prompt-aside": {
        "tr": "Kenara ayrılacak zarlar (ör. 15)", "fr": "Dés à mettre de côté (ex. 15)",
        "en": "Dice to set aside (e.g. 15)",
    },
    "farkle-prompt-next": {
        "tr": "[a]t {dice} zar ({risk}) ya da [k]asaya yatır +{points}",
        "fr": "[l]ancer {dice} dés ({risk}) ou mettre en [b]anque +{points}",
        "en": "[t]hrow {dice} dice ({risk}) or [b]ank +{points}",
    },
    "key-throw": {"tr": "a", "fr": "l", "en": "t"},
    "key-bank": {"tr": "k", "fr": "b", "en": "b"},
    "key-confirm": {"tr": "o", "fr": "v", "en": "c"},
    "not-understood": {
        "tr": "Anlaşılmadı: {entry!r}. {help}", "fr": "Pas compris : {entry!r}. {help}",
        "en": "Not understood: {entry!r}. {help}",
    },
    "no-such-letter": {
        "tr": "{letter!r} diye bir kutu yok", "fr": "Pas de case {letter!r}",
        "en": "There is no box {letter!r}",
    },
    "throws": {"tr": "{name} atıyor: {dice}", "fr": "{name} lance : {dice}",
               "en": "{name} throws: {dice}"},
    "keeps": {"tr": "{name} tutuyor: {dice}", "fr": "{name} garde : {dice}",
              "en": "{name} keeps: {dice}"},
    "writes": {"tr": "{name} → {box}: {points}", "fr": "{name} → {box} : {points}",
               "en": "{name} → {box}: {points}"},
    "sets-aside": {"tr": "{name} kenara ayırıyor: {dice} (+{points})",
                   "fr": "{name} met de côté : {dice} (+{points})",
                   "en": "{name} sets aside: {dice} (+{points})"},
    "three-lost": {"tr": "{name} üst üste üç turu kaybetti: −{points}",
                   "fr": "{name} perd trois tours de suite : −{points}",
                   "en": "{name} lost three turns in a row: −{points}"},
    "bank-needs": {"tr": "Kasaya yatırmak için {points} puan daha gerekiyor: yeniden atış",
                   "fr": "Encore {points} points avant de mettre en banque : on relance",
                   "en": "{points} more points before banking: throwing again"},
    "banks": {"tr": "{name} kasaya yatırıyor: +{points}",
              "fr": "{name} met en banque : +{points}",
              "en": "{name} banks: +{points}"},
    "penta-bonus-won": {"tr": "Penta bonusu: +100", "fr": "Bonus Penta : +100",
                        "en": "Penta bonus: +100"},
    "upper-bonus-won": {"tr": "Üst bölüm bonusu: +35", "fr": "Bonus de la partie haute : +35",
                        "en": "Upper bonus: +35"},
    "left-unfinished": {"tr": "Oyun yarıda bırakıldı.", "fr": "Partie interrompue.",
                        "en": "Game left unfinished."},
}  # fmt: skip
