"""The page's words: home, the new-game dialog, the game screens, the coach, undo, the
review, the history and the statistics."""

from __future__ import annotations

from collections.abc import Mapping

from zar.i18n.game import HOT_DICE, LAST_ROUND, TURN_LOST
from zar.i18n.languages import Language

__all__ = ["WORDS"]

WORDS: Mapping[str, Mapping[Language, str]] = {
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
    "rules-of": {"tr": "Kurallar: {name}", "fr": "Règles : {name}", "en": "Rules: {name}"},
    "two-lost": {"tr": "Üst üste iki kayıp tur: bir tane daha −{points}",
                 "fr": "Deux tours perdus d'affilée : un de plus coûte {points}",
                 "en": "Two lost turns in a row: one more costs {points}"},
    "bank-short": {"tr": "Kasaya yatırmak için {points} puan daha gerek",
                   "fr": "Encore {points} points pour mettre en banque",
                   "en": "{points} more points to bank"},
    # The house rules (docs/rules.md, "House rules"): each preset's name and one line on it.
    "rules-yams-standard": {"tr": "Yams (oyunun kuralları)", "fr": "Yams (règles du jeu)",
                            "en": "Yams (the game's rules)"},
    "rules-yams-standard-about": {
        "tr": "13 kutu; Penta kutusunda 50 varken her yeni Penta +100 ve Joker",
        "fr": "13 cases ; avec 50 en Penta, chaque nouveau Penta +100 et Joker",
        "en": "13 boxes; with 50 in Penta, each new Penta +100 and the Joker"},
    "rules-yams-official": {"tr": "Yahtzee (Hasbro)", "fr": "Yahtzee (Hasbro)",
                            "en": "Yahtzee (Hasbro)"},
    "rules-yams-official-about": {
        "tr": "Penta kutusunda 0 olsa da Joker zorunlu; +100 yalnız 50 varken",
        "fr": "Joker imposé même avec 0 en Penta ; +100 seulement avec 50",
        "en": "The Joker is forced even with 0 in Penta; +100 only with 50"},
    "rules-yams-free-joker": {"tr": "Serbest Joker", "fr": "Joker libre", "en": "Free Joker"},
    "rules-yams-free-joker-about": {
        "tr": "Yeni bir Penta istenen açık kutuya yazılır",
        "fr": "Un nouveau Penta va dans la case libre de son choix",
        "en": "A new Penta goes in any open box"},
    "rules-yams-scandinavian": {"tr": "İskandinav Yatzy", "fr": "Yatzy scandinave",
                                "en": "Scandinavian Yatzy"},
    "rules-yams-scandinavian-about": {
        "tr": "15 kutu: Çift, Çifte çift, seriler 15 ve 20; üst bonus 50; Joker yok",
        "fr": "15 cases : paire, double paire, suites 15 et 20 ; bonus 50 ; pas de Joker",
        "en": "15 boxes: a pair, two pairs, straights 15 and 20; bonus 50; no Joker"},
    "rules-10000-seed": {"tr": "10 000 (oyunun kuralları)", "fr": "10 000 (règles du jeu)",
                         "en": "10 000 (the game's rules)"},
    "rules-10000-seed-about": {
        "tr": "Giriş ve kasa alt sınırı yok; hedefe varan son turu başlatır",
        "fr": "Ni entrée ni minimum en banque ; qui atteint l'objectif lance le dernier tour",
        "en": "No entry or bank minimum; reaching the target starts the last round"},
    "unfinished-games": {"tr": "Yarım kalan oyunlar", "fr": "Parties en cours",
                         "en": "Unfinished games"},
    "continue": {"tr": "Devam et", "fr": "Reprendre", "en": "Continue"},
    "last-played": {"tr": "Son oynanış", "fr": "Dernier coup", "en": "Last played"},
    "see-all": {"tr": "Tümünü gör", "fr": "Tout voir", "en": "See all"},
    "all-unfinished": {"tr": "Tüm yarım kalan oyunlar", "fr": "Toutes les parties en cours",
                       "en": "All unfinished games"},
    "no-unfinished": {"tr": "Yarım kalan oyun yok", "fr": "Aucune partie en cours",
                      "en": "No unfinished game"},
    "more-games": {"tr": "Daha fazla", "fr": "Plus de parties", "en": "More games"},
    "abandon": {"tr": "Bırak", "fr": "Abandonner", "en": "Abandon"},
    "abandon-game": {"tr": "Oyunu bırak", "fr": "Abandonner la partie", "en": "Abandon the game"},
    "abandon-title": {"tr": "Bu oyun bırakılsın mı?", "fr": "Abandonner cette partie ?",
                      "en": "Abandon this game?"},
    "abandon-about": {"tr": "Oyun silinmez, kayıtlı kalır; ama yarım kalan oyunlardan ve "
                            "istatistiklerden çıkar.",
                      "fr": "La partie n'est pas effacée, elle reste enregistrée ; mais elle "
                            "quitte les parties en cours et les statistiques.",
                      "en": "The game is not deleted, it stays stored; but it leaves the "
                            "unfinished games and the statistics."},
    "open-on-phone": {"tr": "Telefondan aç", "fr": "Ouvrir sur un téléphone",
                      "en": "Open it on a phone"},
    "open-on-phone-about": {"tr": "Aynı ağdaki bir telefonda bu adresi açın ya da kodu "
                                  "kamerayla okutun.",
                            "fr": "Sur un téléphone du même réseau, ouvrez cette adresse ou "
                                  "visez le code avec l'appareil photo.",
                            "en": "On a phone on the same network, open this address or point "
                                  "its camera at the code."},
    "qr-code": {"tr": "QR kodu", "fr": "Code QR", "en": "QR code"},
    "offline-title": {"tr": "Sunucuya ulaşılamıyor", "fr": "Le serveur ne répond pas",
                      "en": "The server cannot be reached"},
    "offline-text": {"tr": "Oyunlar sunucuda güvende: bağlantı gelince Zar kaldığı yerden "
                           "sürer.",
                     "fr": "Les parties sont en sûreté sur le serveur : Zar reprend où il en "
                           "était dès qu'il répond.",
                     "en": "The games are safe on the server: Zar carries on where it was as "
                           "soon as it answers."},
    "offline-retrying": {"tr": "Yeniden deneniyor…", "fr": "Nouvel essai…",
                         "en": "Trying again…"},
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
    "add-computer": {"tr": "Bilgisayar ekle", "fr": "Ajouter un ordinateur",
                     "en": "Add a computer"},
    "level": {"tr": "Seviye", "fr": "Niveau", "en": "Level"},
    "pick-dice": {"tr": "Puan getiren zarlara dokunun", "fr": "Touchez les dés qui comptent",
                  "en": "Tap the dice that score"},
    # The computer's levels, by game: what each one does
    "level-yams-easy": {"tr": "Kolay: her atışı en iyi kutusuna yazar",
                        "fr": "Facile : inscrit chaque lancer dans sa meilleure case",
                        "en": "Easy: writes each throw in its best box"},
    "level-yams-expert": {"tr": "Usta: en yüksek ortalama puan için oynar",
                          "fr": "Expert : joue pour le meilleur score moyen",
                          "en": "Expert: plays for the highest average score"},
    "level-yams-win": {"tr": "Rakip avcısı: kazanma şansını en yükseğe çıkarır",
                       "fr": "Compétiteur : joue pour la meilleure chance de gagner",
                       "en": "Competitor: plays for the best chance of winning"},
    "level-10000-seed": {"tr": "Temkinli: 300 puan civarında kasaya yatırır",
                         "fr": "Prudent : met en banque vers 300 points",
                         "en": "Cautious: banks at about 300 points"},
    "level-10000-max-points": {"tr": "Puan avcısı: tur başına en çok puan",
                               "fr": "Chasseur de points : le plus de points par tour",
                               "en": "Point hunter: the most points per turn"},
    "level-10000-expert": {"tr": "Usta: kazanma şansını en yükseğe çıkarır",
                           "fr": "Expert : joue pour la meilleure chance de gagner",
                           "en": "Expert: plays for the best chance of winning"},
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
    "points-one": {"tr": "{points} puan", "fr": "{points} point", "en": "{points} point"},
    "box-points-one": {"tr": "{box}: {points} puan", "fr": "{box} : {points} point",
                       "en": "{box}: {points} point"},
    "autofill-in": {"tr": "{n} saniye sonra otomatik yazılacak",
                    "fr": "Remplissage automatique dans {n} s", "en": "Auto-fill in {n} s"},
    "speed-up": {"tr": "Hızlandır", "fr": "Accélérer", "en": "Speed up"},
    "computer-plays": {"tr": "{name} oynuyor…", "fr": "{name} joue…", "en": "{name} is playing…"},
    "computer-thinking": {"tr": "{name} düşünüyor…", "fr": "{name} réfléchit…",
                          "en": "{name} is thinking…"},
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
    "keys-help-yams": {"tr": "Klavye: 1–5 zar tutar, Enter atar, O turu onaylar",
                       "fr": "Clavier : 1–5 gardent les dés, Entrée lance, V valide le tour",
                       "en": "Keyboard: 1–5 keep dice, Enter throws, C confirms the round"},
    "keys-help-10000": {"tr": "Klavye: 1–6 zar seçer, Enter atar, K kasaya yatırır",
                        "fr": "Clavier : 1–6 choisissent les dés, Entrée lance, B met en banque",
                        "en": "Keyboard: 1–6 pick dice, Enter throws, B banks"},
    "sounds": {"tr": "Ses ve titreşim", "fr": "Sons et vibrations", "en": "Sound and vibration"},
    "penta": {"tr": "Penta!", "fr": "Penta !", "en": "Penta!"},
    "hot-dice-short": {"tr": HOT_DICE, "fr": HOT_DICE, "en": HOT_DICE},
    # 10 000: the seeds' messages on the felt, by the dice (the status line has them whole),
    # the score to beat in the last round, and what the figure beside `At` is.
    "felt-turn-lost": {"tr": f"{TURN_LOST} — Tur kaybedildi", "fr": TURN_LOST,
                       "en": f"{TURN_LOST} — Turn lost"},
    "felt-hot-dice": {"tr": f"{HOT_DICE} — Sıcak zar", "fr": HOT_DICE,
                      "en": f"{HOT_DICE} — Hot dice"},
    "last-round-short": {"tr": LAST_ROUND, "fr": LAST_ROUND, "en": LAST_ROUND},
    "to-beat": {"tr": "Geçilecek puan: {points}", "fr": "{points} à battre",
                "en": "{points} to beat"},
    "risk-label": {"tr": "kaybetme riski", "fr": "risque de perdre", "en": "risk of losing"},
    "throw-risk": {"tr": "Turu kaybetme riski: {risk}", "fr": "Risque de perdre le tour : {risk}",
                   "en": "Risk of losing the turn: {risk}"},
    "scorecard-upper": {"tr": "Puan tablosu: üst bölüm", "fr": "Feuille de score : partie haute",
                        "en": "Scorecard: upper section"},
    "scorecard-lower": {"tr": "Puan tablosu: alt bölüm", "fr": "Feuille de score : partie basse",
                        "en": "Scorecard: lower section"},
    "show-card": {"tr": "kartını göster", "fr": "voir sa feuille", "en": "show their card"},
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
    # What the review judged the decisions by (zar.ai.review.model_of)
    "review-model-points": {"tr": "Kararlar beklenen puanla ölçüldü.",
                            "fr": "Les choix sont jugés aux points attendus.",
                            "en": "Decisions are judged by the points they bring on average."},
    "review-model-duel": {"tr": "Kararlar kazanma şansıyla ölçüldü (iki oyuncunun kesin "
                                "hesabı).",
                          "fr": "Les choix sont jugés à la chance de gagner (le calcul exact "
                                "à deux).",
                          "en": "Decisions are judged by the chance of winning (worked out "
                                "exactly for two players)."},
    "review-model-leader": {"tr": "Kararlar kazanma şansıyla ölçüldü: her biri, önde olan "
                                  "rakibe karşı iki kişilik oyunun kesin hesabıyla.",
                            "fr": "Les choix sont jugés à la chance de gagner : chacun comme "
                                  "un duel contre l'adversaire le mieux placé, calculé "
                                  "exactement.",
                            "en": "Decisions are judged by the chance of winning: each as an "
                                  "exact two-player game against the leading opponent."},
    "review-would": {"tr": "açık kutu, bu atış {points} getirirdi",
                     "fr": "case libre, ce lancer y vaudrait {points}",
                     "en": "open box, this throw would score {points}"},
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
    # The review's account of luck and skill: start + luck − cost = result
    "luck-and-skill": {"tr": "Şans ve beceri", "fr": "Chance et talent", "en": "Luck and skill"},
    "account-start": {"tr": "Başlangıç", "fr": "Départ", "en": "Start"},
    "account-luck": {"tr": "Zar şansı", "fr": "Chance aux dés", "en": "Dice luck"},
    "account-cost": {"tr": "Karar kaybı", "fr": "Coût des choix", "en": "Decision cost"},
    "account-opponent-luck": {"tr": "Rakibin şansı", "fr": "Chance de l'adversaire",
                              "en": "Opponent's luck"},
    "account-opponent-cost": {"tr": "Rakibin kaybı", "fr": "Coût de l'adversaire",
                              "en": "Opponent's cost"},
    "account-result": {"tr": "Sonuç", "fr": "Résultat", "en": "Result"},
    "account-won": {"tr": "kazandı", "fr": "gagné", "en": "won"},
    "account-lost": {"tr": "kaybetti", "fr": "perdu", "en": "lost"},
    "account-tied": {"tr": "berabere", "fr": "égalité", "en": "tied"},
    "luckiest": {"tr": "En şanslı atışlar", "fr": "Les lancers les plus heureux",
                 "en": "The luckiest throws"},
    "unluckiest": {"tr": "En şanssız atışlar", "fr": "Les lancers les plus malheureux",
                   "en": "The unluckiest throws"},
    "value-final": {"tr": "Beklenen son puan", "fr": "Score final attendu",
                    "en": "Expected final score"},
    "value-win": {"tr": "Kazanma şansı", "fr": "Chance de gagner", "en": "Chance of winning"},
    "value-points": {"tr": "Beklenen puan", "fr": "Points attendus", "en": "Expected points"},
    "chart-values-final": {"tr": "Beklenen son puan, adım adım",
                           "fr": "Le score final attendu, étape par étape",
                           "en": "Expected final score, step by step"},
    "chart-values-win": {"tr": "Kazanma şansı, adım adım", "fr": "La chance de gagner, étape "
                         "par étape", "en": "Chance of winning, step by step"},
    "chart-values-points": {"tr": "Beklenen puan, adım adım",
                            "fr": "Les points attendus, étape par étape",
                            "en": "Expected points, step by step"},
    "chart-values-about": {"tr": "{steps} adımda: {people}.", "fr": "En {steps} étapes : {people}.",
                           "en": "Over {steps} steps: {people}."},
    "chart-value-change": {"tr": "{name} {start} → {end}", "fr": "{name} {start} → {end}",
                           "en": "{name} {start} → {end}"},
    "chart-value-range": {
        "tr": "{name}: en yüksek {high} (adım {high_at}), en düşük {low} (adım {low_at})",
        "fr": "{name} : au plus haut {high} (étape {high_at}), au plus bas {low} (étape {low_at})",
        "en": "{name}: highest {high} (step {high_at}), lowest {low} (step {low_at})",
    },
    "axis-step": {"tr": "Adım", "fr": "Étape", "en": "Step"},
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
    "yatzys": {"tr": "Yatzy", "fr": "Yatzys", "en": "Yatzys"},
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
    # The statistics' luck and skill (zar.ai.luck): means per game, cost per decision
    "stats-own": {"tr": "Ayrıntılar", "fr": "Détails", "en": "Details"},
    "mean-luck": {"tr": "Ortalama şans", "fr": "Chance moyenne", "en": "Mean luck"},
    "stats-mean-cost": {"tr": "Ortalama kayıp", "fr": "Perte moyenne", "en": "Mean cost"},
    "luck-covered": {
        "tr": "Oyun başına ortalama, {unit} olarak ({n} oyun): şans, zarların getirdiği; "
              "kayıp, kararların kusursuz oyuna göre yitirdiği.",
        "fr": "Moyennes par partie, en {unit} (parties comptées : {n}) : la chance, ce que les "
              "dés ont apporté ; la perte, ce que les choix ont coûté face au jeu parfait.",
        "en": "Means per game, in {unit} (games counted: {n}): luck is what the dice brought, "
              "cost what the decisions gave up against perfect play.",
    },
    "luck-unit-points": {"tr": "puan", "fr": "points", "en": "points"},
    "luck-unit-win": {"tr": "kazanma şansı", "fr": "chance de gagner",
                      "en": "chance of winning"},
    "chart-cost": {"tr": "Karar başına kayıp, oyun oyun",
                   "fr": "Perte par décision, partie après partie",
                   "en": "Cost per decision, game by game"},
    "chart-cost-about": {"tr": "{games} oyun; ortalamalar: {means}.",
                         "fr": "{games} parties ; moyennes : {means}.",
                         "en": "{games} games; means: {means}."},
    "verhoeff-mark": {"tr": "Usta oyuncu: karar başına {value} puandan az kayıp",
                      "fr": "Jeu d'expert : moins de {value} point perdu par décision",
                      "en": "Expert play: under {value} points lost per decision"},
    "axis-game": {"tr": "Oyun", "fr": "Partie", "en": "Game"},
    "axis-cost-per-decision": {"tr": "Karar başına kayıp", "fr": "Perte par décision",
                               "en": "Cost per decision"},
    "export": {"tr": "Dışa aktar", "fr": "Exporter", "en": "Export"},
    "export-as": {"tr": "{format} olarak indir", "fr": "Télécharger en {format}",
                  "en": "Download as {format}"},
    # Separate phones: invitations, the table, whose turn it is where
    "invite": {"tr": "Davet et", "fr": "Inviter", "en": "Invite"},
    "invite-link": {"tr": "Davet bağlantısı", "fr": "Lien d'invitation", "en": "Invitation link"},
    "watch-link": {"tr": "İzleme bağlantısı", "fr": "Lien pour regarder", "en": "Link to watch"},
    "invite-code": {"tr": "Kod", "fr": "Code", "en": "Code"},
    "invite-about": {"tr": "Bir oyuncu bu bağlantıyı kendi telefonunda açsın ya da QR kodunu "
                           "okutsun, sonra kendi adına dokunsun.",
                     "fr": "Qu'un joueur ouvre ce lien sur son téléphone, ou vise le code QR, puis "
                           "touche son nom.",
                     "en": "Another player opens this link on their phone, or scans the QR code, "
                           "then taps their own name."},
    "code-about": {"tr": "Kamera yoksa: ana sayfada “Kodla katıl”a bu kodu yazın (bir gün "
                         "geçerli).",
                   "fr": "Sans appareil photo : tapez ce code dans « Rejoindre avec un code » "
                         "(valable un jour).",
                   "en": "No camera at hand: type this code in “Join with a code” on the home "
                         "screen (valid a day)."},
    "watch-about": {"tr": "İzleyenler her hamleyi görür, oynamaz.",
                    "fr": "Les spectateurs voient chaque coup et ne jouent pas.",
                    "en": "Watchers see every move and do not play."},
    "copy": {"tr": "Kopyala", "fr": "Copier", "en": "Copy"},
    "copied": {"tr": "Kopyalandı", "fr": "Copié", "en": "Copied"},
    "share": {"tr": "Paylaş", "fr": "Partager", "en": "Share"},
    "done": {"tr": "Tamam", "fr": "OK", "en": "Done"},
    "seats-title": {"tr": "Masa", "fr": "La table", "en": "The table"},
    "holder-you": {"tr": "bu telefonda", "fr": "sur ce téléphone", "en": "on this phone"},
    "holder-host": {"tr": "oyunu kuran telefonda", "fr": "sur le téléphone de l'hôte",
                    "en": "on the host's phone"},
    "holder-guest": {"tr": "kendi telefonunda", "fr": "sur son téléphone",
                     "en": "on their own phone"},
    "holder-computer": {"tr": "IA", "fr": "IA", "en": "the computer"},
    "holder-standin": {"tr": "yerine şimdilik IA oynuyor",
                       "fr": "l'IA joue à sa place pour l'instant",
                       "en": "the computer plays it for now"},
    "here": {"tr": "burada", "fr": "là", "en": "here"},
    "away": {"tr": "uzakta", "fr": "absent", "en": "away"},
    "away-since": {"tr": "uzakta (son görülme {time})", "fr": "absent (vu à {time})",
                   "en": "away (last seen {time})"},
    "to-computer": {"tr": "IA'ya ver", "fr": "Confier à l'IA", "en": "Give to the computer"},
    "to-this-phone": {"tr": "Bu telefona al", "fr": "Reprendre sur ce téléphone",
                      "en": "Take back to this phone"},
    "turn-elsewhere": {"tr": "Sıra: {name}, kendi telefonunda", "fr": "À {name} de jouer, sur son "
                       "téléphone", "en": "{name}'s turn, on their own phone"},
    "turn-host-phone": {"tr": "Sıra: {name}, oyunu kuran telefonda",
                        "fr": "À {name} de jouer, sur le téléphone de l'hôte",
                        "en": "{name}'s turn, on the host's phone"},
    "away-turn": {"tr": "{name} şu an bağlı değil. Sırası için:",
                  "fr": "{name} n'est plus connecté·e. Pour son tour :",
                  "en": "{name} is not connected. For their turn:"},
    "turn-standin": {"tr": "Sıra: {name}; yerine şimdilik IA oynuyor",
                     "fr": "À {name} de jouer ; l'IA joue à sa place pour l'instant",
                     "en": "{name}'s turn; the computer plays it for now"},
    "you-watch": {"tr": "İzliyorsunuz · Sıra: {name}", "fr": "Vous regardez · À {name} de jouer",
                  "en": "You are watching · {name}'s turn"},
    "your-turn": {"tr": "Sıra sende", "fr": "À toi de jouer", "en": "Your turn"},
    "reconnecting": {"tr": "Bağlantı koptu: yeniden bağlanılıyor…",
                     "fr": "Connexion perdue : reconnexion…",
                     "en": "Connection lost: reconnecting…"},
    "join-by-code": {"tr": "Kodla katıl", "fr": "Rejoindre avec un code", "en": "Join with a code"},
    "join": {"tr": "Katıl", "fr": "Rejoindre", "en": "Join"},
    "join-title": {"tr": "Oyuna katıl", "fr": "Rejoindre la partie", "en": "Join the game"},
    "join-who": {"tr": "Masada: {names}", "fr": "À la table : {names}",
                 "en": "At the table: {names}"},
    "join-pick": {"tr": "Hangisi sizsiniz? Adınıza dokunun:", "fr": "Qui êtes-vous ? Touchez votre "
                  "nom :", "en": "Which one are you? Tap your name:"},
    "join-none": {"tr": "Bu davetle alınacak yer kalmadı.",
                  "fr": "Plus aucune place à prendre avec cette invitation.",
                  "en": "No seat is left to take with this invitation."},
    "watch": {"tr": "İzle", "fr": "Regarder", "en": "Watch"},
    "resume-seat": {"tr": "Yerime dön", "fr": "Reprendre ma place", "en": "Take my seat back"},
    "to-game": {"tr": "Oyuna dön", "fr": "Revenir à la partie", "en": "Back to the game"},
    # Back from the computer (`Yerime dön`): what it did meanwhile
    "stood-in-yams": {"tr": "Sen yokken IA senin yerine {n} tur oynadı: {boxes}.",
                      "fr": "Pendant ton absence, l'IA a joué {n} tours pour toi : "
                            "{boxes}.",
                      "en": "While you were away, the computer played {n} rounds for you: "
                            "{boxes}."},
    "stood-in-yams-one": {"tr": "Sen yokken IA senin yerine 1 tur oynadı: {boxes}.",
                          "fr": "Pendant ton absence, l'IA a joué 1 tour pour toi : {boxes}.",
                          "en": "While you were away, the computer played 1 round for you: "
                                "{boxes}."},
    "stood-in-10000": {"tr": "Sen yokken IA senin yerine {n} tur oynadı: {points} puan.",
                       "fr": "Pendant ton absence, l'IA a joué {n} tours pour toi : "
                             "{points} points.",
                       "en": "While you were away, the computer played {n} turns for you: "
                             "{points} points."},
    "stood-in-10000-one": {"tr": "Sen yokken IA senin yerine 1 tur oynadı: {points} puan.",
                           "fr": "Pendant ton absence, l'IA a joué 1 tour pour toi : "
                                 "{points} points.",
                           "en": "While you were away, the computer played 1 turn for you: "
                                 "{points} points."},
    "stood-in-none": {"tr": "Sen yokken IA senin yerine hiç oynamadı.",
                      "fr": "Pendant ton absence, l'IA n'a pas joué pour toi.",
                      "en": "While you were away, the computer did not play for you."},
    # An invitation from a server on this machine only (plain `make run`)
    "here-only": {"tr": "Bu bağlantı ve QR kodu yalnızca bu bilgisayarda açılır: sunucu ağa "
                        "açık değil, başka bir telefon bağlanamaz.",
                  "fr": "Ce lien et ce code QR ne s'ouvrent que sur cet ordinateur : le serveur "
                        "ne sert pas le réseau, aucun autre téléphone ne peut le joindre.",
                  "en": "This link and QR code open on this computer only: the server is not "
                        "on the network, so no other phone can reach it."},
    "here-only-how": {"tr": "Telefonlar için sunucuyu yeniden şöyle başlatın:",
                      "fr": "Pour les téléphones, relancez le serveur ainsi :",
                      "en": "For phones, start the server again with:"},
}  # fmt: skip


def _points(n: int, lang: Language) -> str:
    return f"{n:,}" if lang == "en" else f"{n:,}".replace(",", " ")


def _farkle_presets() -> dict[str, Mapping[Language, str]]:
    """The name of each house rules of 10 000 but the seeds' and a line on it, in each
    language, from its numbers (docs/rules.md, "House rules")."""
    made: dict[str, Mapping[Language, str]] = {}

    def say(key: str, *, tr: str, fr: str, en: str) -> None:
        made[key] = {"tr": tr, "fr": fr, "en": en}

    for n in (500, 750, 1_000):
        tr, fr, en = (_points(n, lang) for lang in ("tr", "fr", "en"))
        say(f"rules-10000-entry-{n}", tr=f"Giriş {tr}", fr=f"Entrée {fr}", en=f"Entry {en}")
        say(
            f"rules-10000-entry-{n}-about",
            tr=f"Tahtaya girmek için ilk kasa en az {tr} puan",
            fr=f"Pour entrer au tableau, une première banque d'au moins {fr} points",
            en=f"To get on the board, a first bank of at least {en} points",
        )
    for n in (300, 350, 500):
        say(
            f"rules-10000-bank-{n}",
            tr=f"Kasa en az {n}",
            fr=f"Banque minimum {n}",
            en=f"Bank minimum {n}",
        )
        say(
            f"rules-10000-bank-{n}-about",
            tr=f"Her kasa en az {n} puan",
            fr=f"Chaque mise en banque d'au moins {n} points",
            en=f"Every bank of at least {n} points",
        )
    for n in (500, 1_000):
        tr, fr, en = (_points(n, lang) for lang in ("tr", "fr", "en"))
        say(
            f"rules-10000-three-lost-{n}",
            tr=f"Üç kayıp tur: −{tr}",
            fr=f"Trois tours perdus : −{fr}",
            en=f"Three lost turns: −{en}",
        )
        say(
            f"rules-10000-three-lost-{n}-about",
            tr=f"Üst üste üç kayıp tur toplamdan {tr} puan götürür",
            fr=f"Trois tours perdus d'affilée retirent {fr} points du total",
            en=f"Three lost turns in a row take {en} points off the total",
        )
    for n in (500, 750):
        say(
            f"rules-10000-three-pairs-{n}",
            tr=f"Üç çift {n}",
            fr=f"Trois paires {n}",
            en=f"Three pairs {n}",
        )
        say(
            f"rules-10000-three-pairs-{n}-about",
            tr=f"Üç çift {n} puan (oyunun kurallarında 1 500)",
            fr=f"Trois paires valent {n} points (1 500 dans les règles du jeu)",
            en=f"Three pairs score {n} (1,500 under the game's rules)",
        )
    for n in (1_000, 1_500):
        tr, fr, en = (_points(n, lang) for lang in ("tr", "fr", "en"))
        say(f"rules-10000-straight-{n}", tr=f"Seri {tr}", fr=f"Suite {fr}", en=f"Straight {en}")
        say(
            f"rules-10000-straight-{n}-about",
            tr=f"1-2-3-4-5-6 serisi {tr} puan (oyunun kurallarında 2 500)",
            fr=f"La suite 1-2-3-4-5-6 vaut {fr} points (2 500 dans les règles du jeu)",
            en=f"The straight 1-2-3-4-5-6 scores {en} (2,500 under the game's rules)",
        )
    say("rules-10000-doubling", tr="Katlanan eşler", fr="Multiples doublés", en="Doubling kinds")
    say(
        "rules-10000-doubling-about",
        tr="Dört eş zar üçlünün 2 katı, beş eş 4 katı, altı eş 8 katı",
        fr="Quatre dés identiques : 2 fois le brelan, cinq : 4 fois, six : 8 fois",
        en="Four of a kind 2× the three, five 4×, six 8×",
    )
    say(
        "rules-preparing",
        tr="Usta seviyesi hazırlanıyor: kazanma şansı tablosu bu sunucuda hesaplanıyor, "
        "hazır olunca sunulur.",
        fr="Le niveau Expert se prépare : la table des chances de gagner est calculée sur ce "
        "serveur, il sera proposé une fois prête.",
        en="The Expert level is on its way: the table of chances of winning is being worked out "
        "on this server, and it is offered once ready.",
    )
    say("rules-10000-facebook", tr="Facebook Farkle", fr="Facebook Farkle", en="Facebook Farkle")
    say(
        "rules-10000-facebook-about",
        tr="Kasa en az 300; üç kayıp tur −500; üç çift 750, seri 1 500; dört, beş ve altı eş "
        "zar üçlünün 2, 3 ve 4 katı (dörtlü ile bir çift üç çift sayılmaz); hedefe ilk varan "
        "kazanır",
        fr="Banque minimum 300 ; trois tours perdus −500 ; trois paires 750, suite 1 500 ; "
        "quatre, cinq et six dés identiques : 2, 3 et 4 fois le brelan (un carré et une paire "
        "ne font pas trois paires) ; le premier à l'objectif gagne",
        en="Bank minimum 300; three lost turns −500; three pairs 750, straight 1,500; four, "
        "five and six of a kind 2×, 3× and 4× the three (four of a kind and a pair are not "
        "three pairs); the first to the target wins",
    )
    return made


FARKLE_PRESETS: Mapping[str, Mapping[Language, str]] = _farkle_presets()
