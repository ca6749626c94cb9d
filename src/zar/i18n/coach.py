"""The coach's words: its advice in a sentence, the review's verdicts, and why a Yams box
scores what it does."""

from __future__ import annotations

from collections.abc import Mapping

from zar.i18n.languages import Language

__all__ = ["WORDS"]

WORDS: Mapping[str, Mapping[Language, str]] = {
    # The coach's advice (API): one sentence
    "advice-keep": {
        "tr": "{dice} zarlarını tutup yeniden atın: oyun sonunda beklenen puan {expected}",
        "fr": "Gardez {dice} et relancez : {expected} points attendus en fin de partie",
        "en": "Keep {dice} and throw again: {expected} points expected at the end",
    },
    "advice-throw-all": {
        "tr": "Beş zarı da yeniden atın: oyun sonunda beklenen puan {expected}",
        "fr": "Relancez les cinq dés : {expected} points attendus en fin de partie",
        "en": "Throw all five dice again: {expected} points expected at the end",
    },
    "advice-box": {
        "tr": "Zarları {box} kutusuna yazın ({points} puan): oyun sonunda beklenen puan {expected}",
        "fr": "Inscrivez les dés en {box} ({points} points) : {expected} points attendus en fin "
              "de partie",
        "en": "Write the dice in {box} ({points} points): {expected} points expected at the end",
    },
    "advice-throw": {"tr": "Zarları atın", "fr": "Lancez les dés", "en": "Throw the dice"},
    "advice-set-aside": {
        "tr": "{dice} zarlarını kenara ayırın (+{points}): tur ortalama {expected} puanla biter",
        "fr": "Mettez {dice} de côté (+{points}) : le tour finit en moyenne à {expected} points",
        "en": "Set aside {dice} (+{points}): the turn ends with {expected} points on average",
    },
    "advice-set-aside-win": {
        "tr": "{dice} zarlarını kenara ayırın (+{points}): kazanma şansı {win}",
        "fr": "Mettez {dice} de côté (+{points}) : {win} de chances de gagner",
        "en": "Set aside {dice} (+{points}): a {win} chance of winning",
    },
    "advice-bank": {
        "tr": "Kasaya yatırın: kesin {expected} puan; {dice} zarı yeniden atmak ortalama {other} "
              "getirir (turu kaybetme riski {risk})",
        "fr": "Mettez en banque : {expected} points assurés ; relancer {dice} dés rapporte "
              "{other} en moyenne (risque de perdre le tour {risk})",
        "en": "Bank: {expected} points for sure; throwing {dice} dice again averages {other} (a "
              "{risk} risk of losing the turn)",
    },
    "advice-throw-again": {
        "tr": "{dice} zarı yeniden atın: ortalama {expected} puan, kasaya yatırmak {other} (turu "
              "kaybetme riski {risk})",
        "fr": "Relancez {dice} dés : {expected} points en moyenne, contre {other} en banque "
              "(risque de perdre le tour {risk})",
        "en": "Throw {dice} dice again: {expected} points on average, against {other} by banking "
              "(a {risk} risk of losing the turn)",
    },
    "advice-bank-win": {
        "tr": "Kasaya yatırın: kazanma şansı {win}; {dice} zarı yeniden atarsanız {other} (turu "
              "kaybetme riski {risk})",
        "fr": "Mettez en banque : {win} de chances de gagner, contre {other} en relançant {dice} "
              "dés (risque de perdre le tour {risk})",
        "en": "Bank: a {win} chance of winning, against {other} by throwing {dice} dice again (a "
              "{risk} risk of losing the turn)",
    },
    "advice-throw-again-win": {
        "tr": "{dice} zarı yeniden atın: kazanma şansı {win}, kasaya yatırırsanız {other} (turu "
              "kaybetme riski {risk})",
        "fr": "Relancez {dice} dés : {win} de chances de gagner, contre {other} en banque (risque "
              "de perdre le tour {risk})",
        "en": "Throw {dice} dice again: a {win} chance of winning, against {other} by banking (a "
              "{risk} risk of losing the turn)",
    },
    "advice-throw-turn": {
        "tr": "{dice} zarı atın: bu tur ortalama {expected} puan getirir (turu kaybetme riski "
              "{risk})",
        "fr": "Lancez les {dice} dés : ce tour rapporte {expected} points en moyenne (risque de "
              "perdre le tour {risk})",
        "en": "Throw the {dice} dice: this turn brings {expected} points on average (a {risk} "
              "risk of losing it)",
    },
    "advice-throw-turn-win": {
        "tr": "{dice} zarı atın: kazanma şansı {win} (turu kaybetme riski {risk})",
        "fr": "Lancez les {dice} dés : {win} de chances de gagner (risque de perdre le tour "
              "{risk})",
        "en": "Throw the {dice} dice: a {win} chance of winning (a {risk} risk of losing the turn)",
    },
    # A Yams game of two whose chances of winning are still being read or worked out
    "advice-chances-pending": {
        "tr": "Kazanma şansları hazırlanıyor: şimdilik beklenen puanla.",
        "fr": "Les chances de gagner se préparent : en points attendus pour l'instant.",
        "en": "The chances of winning are on their way: in expected points for now.",
    },
    # The review (API): a one-line verdict per person
    "verdict-none": {
        "tr": "Değerlendirilecek karar yok",
        "fr": "Aucune décision à juger",
        "en": "No decision to judge",
    },
    "verdict-perfect": {
        "tr": "Kusursuz oyun: her karar en iyisiydi",
        "fr": "Partie parfaite : chaque décision était la meilleure",
        "en": "Perfect play: every decision was the best one",
    },
    "verdict-points": {
        "tr": "{level}: {decisions} kararda {total} puan kaybı (karar başına {mean})",
        "fr": "{level} : {total} points perdus en {decisions} décisions ({mean} par décision)",
        "en": "{level}: {total} points lost over {decisions} decisions ({mean} a decision)",
    },
    "verdict-win": {
        "tr": "{level}: {decisions} kararda kazanma şansından {total} kayıp (karar başına {mean})",
        "fr": "{level} : {total} de chances de gagner perdues en {decisions} décisions ({mean} "
              "par décision)",
        "en": "{level}: {total} of winning chance given up over {decisions} decisions ({mean} a "
              "decision)",
    },
    # The grades, best first (zar.ai.review.GRADES)
    "verdict-excellent": {"tr": "Harika", "fr": "Excellent", "en": "Excellent"},
    "verdict-very-good": {"tr": "Çok iyi", "fr": "Très bien", "en": "Very good"},
    "verdict-good": {"tr": "İyi", "fr": "Bien", "en": "Good"},
    "verdict-fair": {"tr": "Fena değil", "fr": "Correct", "en": "Fair"},
    "verdict-weak": {"tr": "Zayıf", "fr": "Faible", "en": "Weak"},
    "verdict-costly": {"tr": "Pahalı kararlar", "fr": "Coûteux", "en": "Costly"},
    "verdict-very-costly": {"tr": "Çok pahalı kararlar", "fr": "Très coûteux",
                            "en": "Very costly"},
    # Why a Yams box scores what it does (API: the view's notes)
    "note-upper": {
        "tr": "{count} adet {face}: {points} puan",
        "fr": "{count} × {face} : {points} points",
        "en": "{count} × {face}: {points} points",
    },
    "note-upper-one": {
        "tr": "{count} adet {face}: {points} puan",
        "fr": "{count} × {face} : {points} point",
        "en": "{count} × {face}: {points} point",
    },
    "note-upper-none": {"tr": "hiç {face} yok: 0", "fr": "aucun {face} : 0", "en": "no {face}s: 0"},
    "note-sum": {
        "tr": "zarların toplamı: {points}",
        "fr": "la somme des dés : {points}",
        "en": "the sum of the dice: {points}",
    },
    "note-no-kind": {
        "tr": "{n} eş zar yok: 0",
        "fr": "pas {n} dés identiques : 0",
        "en": "no {n} equal dice: 0",
    },
    "note-full": {
        "tr": "üç eş ve iki eş zar: 25",
        "fr": "trois dés identiques et deux autres identiques : 25",
        "en": "three equal dice and two other equal dice: 25",
    },
    "note-no-full": {
        "tr": "üçlü ve ikili yok: 0",
        "fr": "pas de brelan avec une paire : 0",
        "en": "no three of a kind with a pair: 0",
    },
    "note-penta-not-full": {
        "tr": "Penta bir Full sayılmaz: 0",
        "fr": "un Penta n'est pas un full : 0",
        "en": "a Penta is not a full house: 0",
    },
    "note-run": {
        "tr": "art arda {n} değer: {points}",
        "fr": "{n} valeurs qui se suivent : {points}",
        "en": "{n} faces in a row: {points}",
    },
    "note-no-run": {
        "tr": "art arda {n} değer yok: 0",
        "fr": "pas {n} valeurs qui se suivent : 0",
        "en": "no {n} faces in a row: 0",
    },
    "note-penta": {
        "tr": "beş eş zar: 50",
        "fr": "cinq dés identiques : 50",
        "en": "five equal dice: 50",
    },
    "note-no-penta": {
        "tr": "beş eş zar yok: 0",
        "fr": "pas cinq dés identiques : 0",
        "en": "not five equal dice: 0",
    },
    "note-joker": {
        "tr": "Joker: bu Penta {box} sayılır: {points}",
        "fr": "Joker : ce Penta compte comme {box} : {points}",
        "en": "the Joker: this Penta counts as {box}: {points}",
    },
    "note-joker-zero": {
        "tr": "Joker: alt bölümde boş kutu kalmadı, Penta burada 0 puan getirir",
        "fr": "Joker : plus de case libre en bas, le Penta vaut 0 ici",
        "en": "the Joker: no lower box is open, so the Penta scores 0 here",
    },
    "note-joker-forced": {
        "tr": "Joker: Penta önce kendi kutusuna ({box}) yazılır",
        "fr": "Joker : le Penta va d'abord dans sa case du haut ({box})",
        "en": "the Joker: a Penta goes in its own upper box ({box}) first",
    },
    "note-upper-bonus": {
        "tr": "üst bölüm 63'e ulaşır: +{bonus} bonus",
        "fr": "la partie haute atteint 63 : bonus de +{bonus}",
        "en": "the upper section reaches 63: +{bonus} bonus",
    },
    # Scandinavian Yatzy's boxes (the house rules scandinavian)
    "note-pair": {
        "tr": "en yüksek çift: {points}",
        "fr": "la paire la plus haute : {points}",
        "en": "the highest pair: {points}",
    },
    "note-no-pair": {"tr": "çift yok: 0", "fr": "aucune paire : 0", "en": "no pair: 0"},
    "note-two-pairs": {
        "tr": "iki ayrı çift: {points}",
        "fr": "deux paires différentes : {points}",
        "en": "two different pairs: {points}",
    },
    "note-no-two-pairs": {
        "tr": "iki ayrı çift yok: 0",
        "fr": "pas deux paires différentes : 0",
        "en": "no two different pairs: 0",
    },
    "note-kind-dice": {
        "tr": "yalnız {n} eş zar sayılır: {points}",
        "fr": "seuls les {n} dés identiques comptent : {points}",
        "en": "only the {n} equal dice count: {points}",
    },
    "note-faces": {
        "tr": "{faces}: {points}",
        "fr": "{faces} : {points}",
        "en": "{faces}: {points}",
    },
    "note-no-faces": {
        "tr": "{faces} yok: 0",
        "fr": "pas de {faces} : 0",
        "en": "no {faces}: 0",
    },
    "note-full-sum": {
        "tr": "üç eş ve iki eş zar, toplamları: {points}",
        "fr": "un brelan et une paire, leur somme : {points}",
        "en": "three equal dice and two other equal dice, their sum: {points}",
    },
    "note-upper-to-go": {
        "tr": "üst bölüm {total}/63: bonusa {left} puan kaldı",
        "fr": "partie haute à {total}/63 : encore {left} pour le bonus",
        "en": "upper section at {total}/63: {left} to go for the bonus",
    },
    "note-penta-bonus": {
        "tr": "+100 Penta bonusu",
        "fr": "+100 de bonus Penta",
        "en": "+100 Penta bonus",
    },
}  # fmt: skip
