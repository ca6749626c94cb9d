"""The words of the interface in Turkish (the default), French and English.

The engine speaks in stable keys (an :class:`~zar.table.IllegalAction`'s ``reason``, a
:class:`~zar.yams.Box`); front ends turn them into a player's language here. The seeds'
own messages ("Tour perdu !", "Dés chauds !", "Dernier tour !") are the app's French words
and stay the same in every language, as in the original app.

>>> text("tr", "winner", names="Ali")
'Kazanan: Ali'
>>> number(10_000, "tr"), number(10_000, "en")
('10 000', '10,000')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from zar.table import IllegalAction
from zar.yams.scorecard import Box

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Language",
    "box_name",
    "explain",
    "number",
    "percent",
    "text",
]

Language = Literal["tr", "fr", "en"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
DEFAULT_LANGUAGE: Language = "tr"

# The seeds' messages, word for word (outside browser tests rely on them).
TURN_LOST = "Tour perdu !"
HOT_DICE = "Dés chauds !"
LAST_ROUND = "Dernier tour !"

BOX_NAMES: Mapping[Language, tuple[str, ...]] = {
    # seed 000's table; the order of Box
    "tr": (
        "Bir", "İki", "Üç", "Dört", "Beş", "Altı",
        "Üçlü", "Dörtlü", "Full", "Küçük seri", "Büyük seri", "Şans", "Penta",
    ),
    "fr": (
        "As", "Deux", "Trois", "Quatre", "Cinq", "Six",
        "Brelan", "Carré", "Full", "Petite suite", "Grande suite", "Chance", "Penta",
    ),
    "en": (
        "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
        "Three of a kind", "Four of a kind", "Full house", "Small straight",
        "Large straight", "Chance", "Penta",
    ),
}  # fmt: skip

MESSAGES: Mapping[str, Mapping[Language, str]] = {
    # Games and seats
    "yams": {"tr": "Yams", "fr": "Yams", "en": "Yams"},
    "10000": {"tr": "10 000", "fr": "10 000", "en": "10,000"},
    "player-n": {"tr": "Oyuncu {n}", "fr": "Joueur {n}", "en": "Player {n}"},
    "computer": {"tr": "IA", "fr": "IA", "en": "IA"},
    "humans-plus-ai": {"tr": "Humains + 1 IA", "fr": "Humains + 1 IA", "en": "Humains + 1 IA"},
    # The seeds' messages
    "turn-lost": {"tr": TURN_LOST, "fr": TURN_LOST, "en": TURN_LOST},
    "hot-dice": {"tr": HOT_DICE, "fr": HOT_DICE, "en": HOT_DICE},
    "last-round": {"tr": LAST_ROUND, "fr": LAST_ROUND, "en": LAST_ROUND},
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
    "round-of": {"tr": "Tur {round}/13", "fr": "Tour {round}/13", "en": "Round {round}/13"},
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
    "banks": {"tr": "{name} kasaya yatırıyor: +{points}",
              "fr": "{name} met en banque : +{points}",
              "en": "{name} banks: +{points}"},
    "penta-bonus-won": {"tr": "Penta bonusu: +100", "fr": "Bonus Penta : +100",
                        "en": "Penta bonus: +100"},
    "upper-bonus-won": {"tr": "Üst bölüm bonusu: +35", "fr": "Bonus de la partie haute : +35",
                        "en": "Upper bonus: +35"},
    "left-unfinished": {"tr": "Oyun yarıda bırakıldı.", "fr": "Partie interrompue.",
                        "en": "Game left unfinished."},
    # Refusals: IllegalAction.reason
    "name-not-text": {"tr": "Oyuncu adı bir metin olmalı", "fr": "Un nom est un texte",
                      "en": "A player's name is text"},
    "name-empty": {"tr": "Oyuncunun bir adı olmalı", "fr": "Un joueur a besoin d'un nom",
                   "en": "A player needs a name"},
    "name-too-long": {"tr": "Bir ad en fazla 24 karakter olabilir",
                      "fr": "Un nom a au plus 24 caractères",
                      "en": "A name has at most 24 characters"},
    "name-spaces": {"tr": "Bir ad boşlukla başlayamaz ya da bitemez",
                    "fr": "Un nom ne commence ni ne finit par une espace",
                    "en": "A name does not start or end with a space"},
    "name-control": {"tr": "Bir ad kontrol karakteri içeremez",
                     "fr": "Un nom ne contient pas de caractère de contrôle",
                     "en": "A name holds no control characters"},
    "no-players": {"tr": "Oyun için en az bir oyuncu gerekir",
                   "fr": "Il faut au moins un joueur", "en": "A game needs at least one player"},
    "too-many-people": {"tr": "Bir masada en fazla 6 kişi oynar",
                        "fr": "Six personnes au plus par table",
                        "en": "At most 6 people play at one table"},
    "too-many-computers": {"tr": "Masada en fazla 1 IA olabilir",
                           "fr": "Une seule IA par table",
                           "en": "At most one computer player at this table"},
    "name-taken": {"tr": "İki oyuncu aynı adı taşıyor: {name}",
                   "fr": "Deux joueurs s'appellent {name}",
                   "en": "Two players are called {name}"},
    "bad-target": {"tr": "Hedef 5 000, 10 000 ya da 15 000 olmalı",
                   "fr": "L'objectif est 5 000, 10 000 ou 15 000",
                   "en": "The target is 5,000, 10,000 or 15,000"},
    "game-over-refusal": {"tr": "Oyun bitti", "fr": "La partie est terminée",
                          "en": "The game is over"},
    "not-your-turn": {"tr": "Sıra {player} adlı oyuncuda", "fr": "C'est au tour de {player}",
                      "en": "It is {player}'s turn"},
    "bad-face": {"tr": "Bir zar 1 ile 6 arasında bir değer gösterir, {face!r} değil",
                 "fr": "Un dé montre une face de 1 à 6, pas {face!r}",
                 "en": "A die shows a face from 1 to 6, not {face!r}"},
    "dice-count": {"tr": "{expected} zar bekleniyordu, {got} geldi",
                   "fr": "{expected} dés attendus, {got} reçus",
                   "en": "Expected {expected} dice, got {got}"},
    "no-such-die": {"tr": "Böyle bir zar yok: {position}", "fr": "Pas de dé {position}",
                    "en": "There is no die {position}"},
    "die-twice": {"tr": "Bir zar iki kez seçildi", "fr": "Un dé est choisi deux fois",
                  "en": "A die is chosen twice"},
    "set-aside-first": {"tr": "Önce puan getiren en az bir zarı kenara ayırın",
                        "fr": "Mettez d'abord de côté au moins un dé qui compte",
                        "en": "Set aside at least one scoring die first"},
    "throw-first": {"tr": "Önce zarları atın", "fr": "Lancez d'abord les dés",
                    "en": "Throw the dice first"},
    "already-set-aside": {"tr": "Bu atıştan zaten zar ayrıldı: atın ya da kasaya yatırın",
                          "fr": "Des dés sont déjà mis de côté pour ce lancer : "
                                "relancez ou mettez en banque",
                          "en": "Dice are set aside once per throw: throw again or bank"},
    "empty-selection": {"tr": "Puan getiren en az bir zar seçin",
                        "fr": "Choisissez au moins un dé qui compte",
                        "en": "Choose at least one scoring die"},
    "already-aside": {"tr": "{position}. zar zaten kenarda", "fr": "Le dé {position} est déjà "
                      "de côté", "en": "Die {position} is already set aside"},
    "cannot-score": {"tr": "{dice} puan getirmiyor", "fr": "{dice} ne rapporte rien",
                     "en": "{dice} cannot score"},
    "lone": {"tr": "tek başına {face}", "fr": "un {face} seul", "en": "a lone {face}"},
    "pair": {"tr": "bir çift {face}", "fr": "une paire de {face}", "en": "a pair of {face}s"},
    "nothing-to-bank": {"tr": "Yatıracak puan yok: önce atın",
                        "fr": "Rien à mettre en banque : lancez d'abord",
                        "en": "Nothing to bank yet: throw first"},
    "no-throws-left": {"tr": "Bir turda en fazla 3 atış var: bir kutu seçin",
                       "fr": "Trois lancers au plus : choisissez une case",
                       "en": "Three throws are all a round has: choose a box"},
    "keep-before-throw": {"tr": "Turun ilk atışında beş zar da atılır",
                          "fr": "Le premier lancer du tour lance les cinq dés",
                          "en": "The first throw of a round throws all five dice"},
    "box-filled": {"tr": "{box} kutusu zaten dolu", "fr": "La case {box} est déjà remplie",
                   "en": "{box} is already filled"},
    "joker-forced": {"tr": "Joker: bu Penta {forced} kutusuna yazılmak zorunda",
                     "fr": "Joker : ce Penta doit aller dans la case {forced}",
                     "en": "The Joker: this Penta must go in {forced}"},
    "joker-lower-first": {"tr": "Joker: alt bölümde boş kutu varken bu Penta {box} "
                          "kutusuna yazılamaz",
                          "fr": "Joker : tant qu'une case du bas est libre, ce Penta ne va "
                                "pas dans {box}",
                          "en": "The Joker: while a lower box is open, this Penta cannot go "
                                "in {box}"},
    "bad-request": {"tr": "İstek anlaşılmadı ({where})", "fr": "Requête incomprise ({where})",
                    "en": "The request was not understood ({where})"},
    "unknown-game": {"tr": "Böyle bir oyun yok", "fr": "Cette partie n'existe pas",
                     "en": "There is no such game"},
    "not-found": {"tr": "Burada bir şey yok", "fr": "Il n'y a rien ici",
                  "en": "There is nothing here"},
    "method-not-allowed": {"tr": "Bu adres bu isteği kabul etmiyor",
                           "fr": "Cette adresse n'accepte pas cette requête",
                           "en": "This address does not take this request"},
    "body-too-large": {"tr": "İstek çok büyük: en fazla {limit} KiB",
                       "fr": "Requête trop grande : {limit} Kio au plus",
                       "en": "The request is too large: {limit} KiB at most"},
    "too-many-games": {"tr": "Çok fazla yeni oyun: {seconds} saniye sonra yeniden deneyin",
                       "fr": "Trop de nouvelles parties : réessayez dans {seconds} s",
                       "en": "Too many new games: try again in {seconds} s"},
    "stale-version": {"tr": "Oyun bu arada ilerledi: güncel hâli gösteriliyor",
                      "fr": "La partie a avancé entre-temps : voici son état actuel",
                      "en": "The game has moved on meanwhile: here is where it is now"},
    "not-saved": {"tr": "Oyun kaydedilemedi; daha önce kaydedilen hiçbir şey kaybolmadı. "
                        "Yeniden deneyin.",
                  "fr": "La partie n'a pas pu être enregistrée ; rien de ce qui l'était déjà "
                        "n'est perdu. Réessayez.",
                  "en": "The game could not be saved; nothing already stored is lost. "
                        "Try again."},
    "not-read": {"tr": "Oyunlar şu anda okunamıyor. Birazdan yeniden deneyin.",
                 "fr": "Les parties ne peuvent pas être lues pour l'instant. Réessayez dans "
                       "un instant.",
                 "en": "The games cannot be read just now. Try again in a moment."},
    "server-error": {"tr": "Sunucuda bir sorun çıktı; kaydedilen hiçbir şey kaybolmadı. "
                           "Yeniden deneyin.",
                     "fr": "Le serveur a rencontré un problème ; rien de ce qui était "
                           "enregistré n'est perdu. Réessayez.",
                     "en": "Something went wrong on the server; nothing stored is lost. "
                           "Try again."},
    "not-computer-turn": {"tr": "Sıra bir oyuncuda, IA'da değil",
                          "fr": "C'est à une personne de jouer, pas à l'IA",
                          "en": "It is a person's turn, not the computer's"},
    "computer-turn": {"tr": "Sıra IA'da", "fr": "C'est au tour de l'IA",
                      "en": "It is the computer's turn"},
    "autofill-too-early": {"tr": "IA kutuyu ancak üçüncü atıştan sonra yazar",
                           "fr": "L'IA ne remplit la case qu'après le troisième lancer",
                           "en": "The computer writes the dice only after the third throw"},
    "no-such-action": {"tr": "Bu oyunda böyle bir hamle yok",
                       "fr": "Ce jeu n'a pas cette action", "en": "This game has no such action"},
    "bad-level": {"tr": "IA'nın böyle bir seviyesi yok: {level}",
                  "fr": "L'IA n'a pas de niveau {level}",
                  "en": "The computer has no level {level}"},
    "no-such-box": {"tr": "Böyle bir kutu yok", "fr": "Cette case n'existe pas",
                    "en": "There is no such box"},
    "nothing-to-undo": {
        "tr": "Geri alınacak bir karar yok",
        "fr": "Aucune décision à annuler",
        "en": "There is no decision to undo",
    },
    "no-hint": {
        "tr": "Koç bu oyuncu için kapalı",
        "fr": "Le coach n'est pas activé pour ce joueur",
        "en": "The coach is off for this player",
    },
    "not-finished": {
        "tr": "Oyun henüz bitmedi",
        "fr": "La partie n'est pas terminée",
        "en": "The game is not finished yet",
    },
    "no-such-version": {
        "tr": "Bu oyunun adımları 0 ile {last} arasında",
        "fr": "Cette partie a les étapes 0 à {last}",
        "en": "This game has steps 0 to {last}",
    },
    "hints-not-players": {
        "tr": "Koç yalnızca masadaki oyunculara yardım eder: {name} oyuncu değil",
        "fr": "Le coach n'aide que les joueurs de la table : {name} n'en est pas",
        "en": "The coach helps only the players at the table: {name} is not one",
    },
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
    "verdict-excellent": {"tr": "Harika", "fr": "Excellent", "en": "Excellent"},
    "verdict-good": {"tr": "İyi", "fr": "Bien", "en": "Good"},
    "verdict-fair": {"tr": "Fena değil", "fr": "Correct", "en": "Fair"},
    "verdict-costly": {"tr": "Pahalı kararlar", "fr": "Coûteux", "en": "Costly"},
    # Why a Yams box scores what it does (API: the view's notes)
    "note-upper": {
        "tr": "{count} adet {face}: {points} puan",
        "fr": "{count} × {face} : {points} points",
        "en": "{count} × {face}: {points} points",
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
        "tr": "üst bölüm 63'e ulaşır: +35 bonus",
        "fr": "la partie haute atteint 63 : bonus de +35",
        "en": "the upper section reaches 63: +35 bonus",
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
    # The page (static/): home, the new-game dialog, the game screens
    "tagline": {"tr": "Yams ve 10 000: tek telefon, bütün masa",
                "fr": "Yams et 10 000 : un téléphone pour toute la table",
                "en": "Yams and 10,000: one phone for the whole table"},
    "yams-about": {"tr": "Beş zar, on üç kutu: her turda zarları bir kutuya yazın.",
                   "fr": "Cinq dés, treize cases : à chaque tour, inscrivez les dés dans une case.",
                   "en": "Five dice, thirteen boxes: each round, write the dice in one box."},
    "10000-about": {
        "tr": "Altı zar: puan getirenleri ayırın, sonra kasaya yatırın ya da devam edin.",
        "fr": "Six dés : mettez de côté ce qui compte, puis mettez en banque ou relancez.",
        "en": "Six dice: set aside what scores, then bank or throw again.",
    },
    "play": {"tr": "Oyna", "fr": "Jouer", "en": "Play"},
    "play-game": {"tr": "{game} oyna", "fr": "Jouer au {game}", "en": "Play {game}"},
    "rules": {"tr": "Kurallar", "fr": "Règles", "en": "Rules"},
    "rules-of": {"tr": "{game} kuralları", "fr": "Règles du {game}", "en": "Rules of {game}"},
    "unfinished-games": {"tr": "Yarım kalan oyunlar", "fr": "Parties en cours",
                         "en": "Unfinished games"},
    "continue": {"tr": "Devam et", "fr": "Reprendre", "en": "Continue"},
    "language": {"tr": "Dil", "fr": "Langue", "en": "Language"},
    "home": {"tr": "Ana sayfa", "fr": "Accueil", "en": "Home"},
    "theme": {"tr": "Tema: {mode}", "fr": "Thème : {mode}", "en": "Theme: {mode}"},
    "theme-auto": {"tr": "sistem", "fr": "système", "en": "system"},
    "theme-light": {"tr": "açık", "fr": "clair", "en": "light"},
    "theme-dark": {"tr": "koyu", "fr": "sombre", "en": "dark"},
    "game": {"tr": "Oyun", "fr": "Jeu", "en": "Game"},
    "players": {"tr": "Oyuncular", "fr": "Joueurs", "en": "Players"},
    "add-player": {"tr": "Oyuncu ekle", "fr": "Ajouter un joueur", "en": "Add a player"},
    "remove-player": {"tr": "Sil: {name}", "fr": "Retirer {name}", "en": "Remove {name}"},
    "level": {"tr": "Seviye", "fr": "Niveau", "en": "Level"},
    "pick-dice": {"tr": "Kenara ayırmak için puan getiren zarlara dokunun",
                  "fr": "Touchez les dés qui comptent pour les mettre de côté",
                  "en": "Tap the dice that score to set them aside"},
    "level-easy": {"tr": "Kolay", "fr": "Facile", "en": "Easy"},
    "level-expert": {"tr": "Usta (en iyi oyun)", "fr": "Expert (jeu parfait)",
                     "en": "Expert (perfect play)"},
    "level-max-points": {"tr": "En çok puan", "fr": "Maximum de points", "en": "Most points"},
    "level-seed": {"tr": "Özgün uygulamadaki gibi", "fr": "Comme l'appli d'origine",
                   "en": "As in the original app"},
    "autofill": {"tr": "Otomatik yazma", "fr": "Remplissage automatique", "en": "Auto-fill"},
    "seconds": {"tr": "{n} sn", "fr": "{n} s", "en": "{n} s"},
    "off": {"tr": "Kapalı", "fr": "Désactivé", "en": "Off"},
    "start": {"tr": "Başlat", "fr": "Commencer", "en": "Start"},
    "cancel": {"tr": "Vazgeç", "fr": "Annuler", "en": "Cancel"},
    "throws-left": {"tr": "{n} atış kaldı", "fr": "Lancers restants : {n}",
                    "en": "Throws left: {n}"},
    "die-kept": {"tr": "{face}, tutuldu", "fr": "{face}, gardé", "en": "{face}, kept"},
    "die-selected": {"tr": "{face}, seçildi", "fr": "{face}, choisi", "en": "{face}, chosen"},
    "die-aside": {"tr": "{face}, kenarda", "fr": "{face}, mis de côté", "en": "{face}, set aside"},
    "kept": {"tr": "tutuldu", "fr": "gardé", "en": "kept"},
    "selected": {"tr": "seçildi", "fr": "choisi", "en": "chosen"},
    "points": {"tr": "{points} puan", "fr": "{points} points", "en": "{points} points"},
    "box-points": {"tr": "{box}: {points} puan", "fr": "{box} : {points} points",
                   "en": "{box}: {points} points"},
    "autofill-in": {"tr": "{n} saniye sonra otomatik yazılacak",
                    "fr": "Remplissage automatique dans {n} s", "en": "Auto-fill in {n} s"},
    "speed-up": {"tr": "Hızlandır", "fr": "Accélérer", "en": "Speed up"},
    "computer-plays": {"tr": "{name} oynuyor…", "fr": "{name} joue…", "en": "{name} is playing…"},
    "rematch": {"tr": "Rövanş", "fr": "Revanche", "en": "Rematch"},
    "final-scores": {"tr": "Son puanlar", "fr": "Scores finaux", "en": "Final scores"},
    "scorecard": {"tr": "Puan tablosu", "fr": "Feuille de score", "en": "Scorecard"},
    "scoreboard": {"tr": "Skorlar", "fr": "Scores", "en": "Scores"},
    "box": {"tr": "Kutu", "fr": "Case", "en": "Box"},
    "set-aside-strip": {"tr": "Kenara ayrılanlar", "fr": "Dés mis de côté", "en": "Set aside"},
    "lost-points": {"tr": "Kaybedilen: {points}", "fr": "Perdu : {points}",
                    "en": "Lost: {points}"},
    "of-target": {"tr": "{total} / {target}", "fr": "{total} / {target}",
                  "en": "{total} / {target}"},
    "keys-help": {"tr": "Klavye: 1–6 zar seçer, Enter atar",
                  "fr": "Clavier : 1–6 choisissent les dés, Entrée lance",
                  "en": "Keyboard: 1–6 pick dice, Enter throws"},
    "connection-lost": {"tr": "Sunucuya ulaşılamadı", "fr": "Le serveur ne répond pas",
                        "en": "The server cannot be reached"},
    "turn-label": {"tr": "Tur puanı", "fr": "Points du tour", "en": "Turn points"},
    # The page: the coach, undo, the review, the history, the statistics
    "hint": {"tr": "İpucu", "fr": "Conseil", "en": "Hint"},
    "coach": {"tr": "Koç", "fr": "Coach", "en": "Coach"},
    "coach-thinking": {"tr": "Koç düşünüyor…", "fr": "Le coach réfléchit…",
                       "en": "The coach is thinking…"},
    "coach-best": {"tr": "en iyisi", "fr": "le meilleur", "en": "best"},
    "coach-keep": {"tr": "Tut: {dice}", "fr": "Garder : {dice}", "en": "Keep: {dice}"},
    "coach-keep-none": {"tr": "Beşini de yeniden at", "fr": "Relancer les cinq dés",
                        "en": "Throw all five again"},
    "coach-box": {"tr": "Yaz: {box} ({points})", "fr": "Inscrire : {box} ({points})",
                  "en": "Write: {box} ({points})"},
    "coach-final": {"tr": "beklenen son puan {value}", "fr": "score final attendu {value}",
                    "en": "expected final score {value}"},
    "coach-set-aside": {"tr": "Kenara ayır: {dice} (+{points})",
                        "fr": "Mettre de côté : {dice} (+{points})",
                        "en": "Set aside: {dice} (+{points})"},
    "coach-bank": {"tr": "Kasaya yatır", "fr": "Mettre en banque", "en": "Bank"},
    "coach-throw": {"tr": "Yeniden at", "fr": "Relancer", "en": "Throw again"},
    "coach-turn": {"tr": "beklenen tur puanı {value}", "fr": "points du tour attendus {value}",
                   "en": "expected turn points {value}"},
    "coach-win": {"tr": "kazanma şansı {chance}", "fr": "chance de gagner {chance}",
                  "en": "chance of winning {chance}"},
    "coach-apply": {"tr": "Uygula", "fr": "Appliquer", "en": "Apply"},
    "coach-apply-to": {"tr": "Uygula: {option}", "fr": "Appliquer : {option}",
                       "en": "Apply: {option}"},
    "undo": {"tr": "Geri al", "fr": "Défaire", "en": "Undo"},
    "undone": {"tr": "{name} son kararını geri aldı", "fr": "{name} revient sur son dernier choix",
               "en": "{name} took back the last decision"},
    "undone-mark": {"tr": "geri alındı", "fr": "défait", "en": "undone"},
    "review": {"tr": "İnceleme", "fr": "Analyse", "en": "Review"},
    "review-about": {"tr": "Her karar, en iyi oyuncunun seçimiyle karşılaştırıldı.",
                     "fr": "Chaque choix, comparé à celui du joueur parfait.",
                     "en": "Every decision, next to the perfect player's."},
    "decisions": {"tr": "{n} karar", "fr": "{n} décisions", "en": "{n} decisions"},
    "total-cost": {"tr": "Toplam kayıp", "fr": "Perte totale", "en": "Total cost"},
    "mean-cost": {"tr": "Karar başına", "fr": "Par décision", "en": "Per decision"},
    "cost-points": {"tr": "{value} puan", "fr": "{value} points", "en": "{value} points"},
    "cost-win": {"tr": "{value} kazanma şansı", "fr": "{value} de chance de gagner",
                 "en": "{value} chance of winning"},
    "worst-decisions": {"tr": "En pahalı kararlar", "fr": "Les choix les plus coûteux",
                        "en": "The costliest decisions"},
    "no-costly-decision": {"tr": "Pahalı bir karar yok", "fr": "Aucun choix coûteux",
                           "en": "No costly decision"},
    "chosen": {"tr": "Seçilen", "fr": "Choisi", "en": "Chosen"},
    "best": {"tr": "En iyisi", "fr": "Le meilleur", "en": "Best"},
    "cost": {"tr": "Kayıp: {cost}", "fr": "Coût : {cost}", "en": "Cost: {cost}"},
    "round-n": {"tr": "Tur {round}", "fr": "Tour {round}", "en": "Round {round}"},
    "history": {"tr": "Geçmiş", "fr": "Historique", "en": "History"},
    "finished-games": {"tr": "Biten oyunlar", "fr": "Parties terminées", "en": "Finished games"},
    "no-finished-games": {"tr": "Henüz biten oyun yok", "fr": "Aucune partie terminée",
                          "en": "No finished game yet"},
    "replay-of": {"tr": "{game}, {date}", "fr": "{game}, {date}", "en": "{game}, {date}"},
    "previous": {"tr": "Önceki", "fr": "Précédent", "en": "Previous"},
    "next": {"tr": "Sonraki", "fr": "Suivant", "en": "Next"},
    "step": {"tr": "Adım", "fr": "Étape", "en": "Step"},
    "step-of": {"tr": "Adım {n}/{total}", "fr": "Étape {n}/{total}", "en": "Step {n}/{total}"},
    "game-start": {"tr": "Oyunun başı", "fr": "Début de la partie", "en": "The start of the game"},
    "stats": {"tr": "İstatistikler", "fr": "Statistiques", "en": "Statistics"},
    "no-stats": {"tr": "Bu oyunda henüz biten oyun yok",
                 "fr": "Aucune partie terminée à ce jeu", "en": "No finished game of this yet"},
    "player": {"tr": "Oyuncu", "fr": "Joueur", "en": "Player"},
    "games-played": {"tr": "Oyun", "fr": "Parties", "en": "Games"},
    "wins": {"tr": "Galibiyet", "fr": "Victoires", "en": "Wins"},
    "mean-total": {"tr": "Ortalama", "fr": "Moyenne", "en": "Mean"},
    "best-total": {"tr": "En iyi", "fr": "Meilleur", "en": "Best"},
    "upper-bonus-rate": {"tr": "Üst bonus", "fr": "Bonus du haut", "en": "Upper bonus"},
    "pentas": {"tr": "Penta", "fr": "Pentas", "en": "Pentas"},
    "penta-bonuses": {"tr": "Penta bonusu", "fr": "Bonus Penta", "en": "Penta bonuses"},
    "lost-turns": {"tr": "Kayıp tur", "fr": "Tours perdus", "en": "Lost turns"},
    "hot-dice-count": {"tr": "Sıcak zar", "fr": "Dés chauds", "en": "Hot dice"},
    "points-per-turn": {"tr": "Tur başına puan", "fr": "Points par tour",
                        "en": "Points per turn"},
    "everyone": {"tr": "Herkes", "fr": "Tout le monde", "en": "Everyone"},
    "chart-totals": {"tr": "Son puanların dağılımı", "fr": "Répartition des totaux",
                     "en": "Distribution of final totals"},
    "chart-totals-about": {
        "tr": "{n} son puan, {low} ile {high} arası; en sık {bin} ({count} kez).",
        "fr": "{n} totaux, de {low} à {high} ; le plus souvent {bin} ({count} fois).",
        "en": "{n} totals, from {low} to {high}; most often {bin} ({count} times).",
    },
    "chart-bin": {"tr": "{low}–{high}: {count}", "fr": "{low}–{high} : {count}",
                  "en": "{low}–{high}: {count}"},
    "chart-progress": {"tr": "Tur tur puanlar", "fr": "Les totaux tour après tour",
                       "en": "Totals turn by turn"},
    "chart-progress-about": {"tr": "{turns} tur sonunda: {totals}.",
                             "fr": "Après {turns} tours : {totals}.",
                             "en": "After {turns} turns: {totals}."},
    "which-game": {"tr": "Hangi oyun", "fr": "Quelle partie", "en": "Which game"},
    "axis-turn": {"tr": "Tur", "fr": "Tour", "en": "Turn"},
    "axis-games": {"tr": "Oyun sayısı", "fr": "Parties", "en": "Games"},
    "axis-total": {"tr": "Son puan", "fr": "Total final", "en": "Final total"},
    "axis-points": {"tr": "Puan", "fr": "Points", "en": "Points"},
    "export": {"tr": "Dışa aktar", "fr": "Exporter", "en": "Export"},
    "export-as": {"tr": "{format} olarak indir", "fr": "Télécharger en {format}",
                  "en": "Download as {format}"},
}  # fmt: skip


def text(lang: Language, key: str, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in."""
    return MESSAGES[key][lang].format(**params)


def box_name(box: Box, lang: Language) -> str:
    """A box's name in ``lang``; in Turkish, the seed's."""
    return BOX_NAMES[lang][box.value]


def number(n: int, lang: Language) -> str:
    """Points in the language's format: ``10 000`` in Turkish and French, ``10,000`` in English."""
    grouped = f"{n:,}"
    return grouped if lang == "en" else grouped.replace(",", " ")


def percent(p: float, lang: Language) -> str:
    """A chance in the language's format: ``%15,7`` (tr), ``15,7 %`` (fr), ``15.7%`` (en)."""
    digits = f"{100 * p:.1f}"
    match lang:
        case "tr":
            return "%" + digits.replace(".", ",")
        case "fr":
            return digits.replace(".", ",") + " %"
        case "en":
            return digits + "%"


def explain(error: IllegalAction, lang: Language) -> str:
    """A refused action, said in the player's language."""
    details = dict(error.details)
    reason = "game-over-refusal" if error.reason == "game-over" else error.reason
    if reason not in MESSAGES:
        return str(error)
    if reason == "cannot-score":
        groups = details.get("dice", ())
        parts = [
            text(lang, "lone" if count == 1 else "pair", face=face)
            for face, count in groups  # type: ignore[attr-defined]
        ]
        details["dice"] = f" {text(lang, 'and')} ".join(parts)
    for key in ("box", "forced"):
        if isinstance(details.get(key), Box):
            details[key] = box_name(details[key], lang)  # type: ignore[arg-type]
    if isinstance(details.get("position"), int):
        details["position"] = details["position"] + 1  # type: ignore[operator]
    message = text(lang, reason, **details)
    return message[:1].upper() + message[1:]
