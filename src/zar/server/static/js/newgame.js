// The new-game dialog: the game, its rules (the seeds' by default, the house rules one tap
// away), the people (Oyuncu 1 … 6), the computers (the seed's `Humains + 1 IA`, then IA 2,
// IA 3… each at a level the rules offer, seven seats in all), the target or the auto-fill.
// The server judges the names; its refusal is shown as it says it.

import { get, post } from "./api.js";
import { h } from "./dom.js";
import { gameName, num, t } from "./i18n.js";

let setup = null;

function radios(name, legend, choices, checked) {
  const id = `legend-${name}`;
  return h("fieldset", { class: `choice choice-${name}`, role: "radiogroup", "aria-labelledby": id },
    h("legend", { id }, legend),
    choices.map(([value, label]) =>
      h("label", { class: "option" },
        h("input", { type: "radio", name, value: String(value), checked: String(value) === String(checked) }),
        h("span", {}, label))));
}

export class NewGameDialog {
  constructor(onCreated) {
    this.onCreated = onCreated;
    this.el = null;
  }

  async open(kind) {
    // Asked each time: the levels a set of rules offers grow once a table is built.
    const asked = await get("/api/setup");
    if (asked.ok) setup = asked.data;
    if (!setup) return;
    if (!this.el) this.build();
    if (kind) this.form.elements.game.value = kind;
    this.error.textContent = "";
    this.changed();
    this.el.showModal();
    (this.names()[0] ?? this.computer).focus();
  }

  build() {
    this.error = h("p", { class: "error", role: "alert" });
    this.list = h("ol", { class: "names" });
    this.add = h("button", { type: "button", class: "quiet add" }, t("add-player"));
    this.add.addEventListener("click", () => {
      this.addName();
      this.names().at(-1).focus();
    });
    this.computer = h("input", { type: "checkbox", name: "computer", "aria-describedby": "computer-about" });
    this.level = h("select", { name: "level" });
    this.levels = {}; // the level chosen for each game, while the dialog lives
    this.level.addEventListener("change", () => {
      this.levels[this.form.elements.game.value] = this.level.value;
    });
    this.computer.addEventListener("change", () => this.seatComputers());
    // More computers than the seed's one: IA 2, IA 3…, each at its own level.
    this.more = h("ol", { class: "names computers" });
    this.addComputer = h("button", { type: "button", class: "quiet add" }, t("add-computer"));
    this.addComputer.addEventListener("click", () => this.seatComputer());
    // The rules: a select of the game's presets, a line on the one chosen beside it.
    this.rulesAbout = h("p", { class: "about", id: "rules-about" });
    // Named by its label's words alone (WebKit adds the option shown to a wrapping label's).
    this.rules = h("select", { name: "rules", "aria-labelledby": "rules-label",
      "aria-describedby": "rules-about" });
    this.chosenRules = {}; // the rules chosen for each game, while the dialog lives
    this.rules.addEventListener("change", () => {
      this.chosenRules[this.form.elements.game.value] = this.rules.value;
      this.changed();
    });
    const cancel = h("button", { type: "button" }, t("cancel"));
    cancel.addEventListener("click", () => this.el.close());
    this.start = h("button", { type: "submit", class: "primary" }, t("start"));
    this.form = h("form", { class: "new-game", novalidate: true },
      h("h2", { id: "new-game-title" }, t("new-game")),
      radios("game", t("game"), setup.games.map((g) => [g, gameName(g)]), "yams"),
      h("div", { class: "rules-choice" },
        h("label", { class: "level" }, h("span", { id: "rules-label" }, t("rules")), this.rules),
        this.rulesAbout),
      h("fieldset", { class: "players" }, h("legend", {}, t("players")), this.list, this.add),
      h("div", { class: "computer" },
        // The seed's words first in its name, their meaning beside them (`Humains + 1 IA — …`).
        h("label", { class: "check" }, this.computer, h("span", {}, t("humans-plus-ai"))),
        h("p", { class: "about", id: "computer-about" }, t("humans-plus-ai-about")),
        h("label", { class: "level" }, h("span", {}, t("level")), this.level),
        this.more, this.addComputer),
      radios("target", t("target"), setup.targets.map((n) => [n, num(n)]), setup.default_target),
      radios("autofill", t("autofill"),
        setup.autofill.map((s) => [s ?? "off", s === null ? t("off") : t("seconds", { n: s })]),
        setup.default_autofill),
      this.error,
      h("div", { class: "actions" }, cancel, this.start));
    this.form.addEventListener("change", (event) => {
      if (event.target.name === "game" || event.target.name === "target") this.changed();
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.el = h("dialog", { class: "dialog", "aria-labelledby": "new-game-title" }, this.form);
    document.body.append(this.el);
    this.addName();
  }

  names() {
    return [...this.list.querySelectorAll("input[name=player]")];
  }

  /** A row for one more person; `hinted`: their box `İpucu` ticked (by default only for a
   * person alone at the table so far: adding someone leaves the boxes above as they are). */
  addName(hinted = this.names().length === 0) {
    const n = this.names().length + 1;
    if (n > setup.max_people || this.seats() >= setup.max_seats) return;
    const input = h("input", { type: "text", name: "player", maxlength: 24, autocomplete: "off",
      placeholder: t("player-n", { n }), enterkeyhint: "done",
      // Named by its label alone: WebKit adds an empty box's placeholder to a label's name.
      "aria-label": t("player-n", { n }) });
    // Hints: on for the first person (alone, or with the computer), off for those added to
    // a table of people; no box changes but by the person's own tap.
    const hint = h("input", { type: "checkbox", name: "hint", checked: hinted });
    // Every row may go but the last person's of a table without a computer.
    const remove = h("button", { type: "button", class: "quiet remove",
      "aria-label": t("remove-player", { name: t("player-n", { n }) }) }, "×");
    remove.addEventListener("click", () => this.removeName(row));
    const row = h("li", {}, h("label", {}, h("span", {}, t("player-n", { n })), input),
      h("label", { class: "check hint-check" }, hint, h("span", {}, t("hint"))), remove);
    this.list.append(row);
    this.fit();
  }

  /** The seats the dialog sets so far: the people, and the computers. */
  seats() {
    return this.names().length + this.chosenLevels().length;
  }

  /** The computers' levels in seat order: none, or the seed's one's and those added. */
  chosenLevels() {
    if (!this.computer?.checked) return [];
    return [this.level.value, ...[...this.more.querySelectorAll("select")].map((s) => s.value)];
  }

  /** The buttons as the table stands: adding while a seat is free, removing while another
   * seat stays. */
  fit() {
    const full = this.seats() >= setup.max_seats;
    this.add.disabled = full || this.names().length >= setup.max_people;
    this.addComputer.disabled = full;
    const alone = this.names().length === 1 && !this.computer.checked;
    for (const remove of this.list.querySelectorAll(".remove")) {
      remove.classList.toggle("stays", alone);
      remove.disabled = alone;
    }
    this.level.disabled = !this.computer.checked;
  }

  /** The seed's computer on or off: off, the computers added go with it (and a table left
   * with nobody gets a person's row back). */
  seatComputers() {
    if (!this.computer.checked) this.more.replaceChildren();
    if (!this.computer.checked && this.names().length === 0) this.addName();
    this.fit();
  }

  /** One more computer: the seed's first, then IA 2, IA 3… at the game's default level. */
  seatComputer() {
    if (this.seats() >= setup.max_seats) return;
    if (!this.computer.checked) {
      this.computer.checked = true;
      this.seatComputers();
      this.level.focus();
      return;
    }
    const name = `${t("computer")} ${this.more.children.length + 2}`;
    const select = h("select", { name: "more-level", "aria-label": `${t("level")}: ${name}` },
      this.options(this.form.elements.game.value));
    const kind = this.form.elements.game.value;
    const levels = this.levelsOffered(kind);
    select.value = levels.includes(setup.default_level[kind]) ? setup.default_level[kind] : levels[0];
    const row = h("li", {});
    const remove = h("button", { type: "button", class: "quiet remove",
      "aria-label": t("remove-player", { name }) }, "×");
    remove.addEventListener("click", () => this.removeComputer(row));
    row.append(h("label", { class: "level" }, h("span", {}, name), select), remove);
    this.more.append(row);
    this.fit();
    select.focus();
  }

  /** Remove a computer added: those below move up, keeping their levels (IA 2, IA 3…). */
  removeComputer(row) {
    const levels = [...this.more.querySelectorAll("select")].map((s) => s.value);
    const index = [...this.more.children].indexOf(row);
    levels.splice(index, 1);
    this.more.replaceChildren();
    for (const level of levels) {
      this.seatComputer();
      this.more.lastElementChild.querySelector("select").value = level;
    }
    const rows = this.more.querySelectorAll("select");
    (rows[Math.max(0, index - 1)] ?? this.level).focus();
  }

  /** The computer's levels under the game's rules chosen (in 10 000, to the target chosen:
   * under a penalty preset the expert waits for that target's table). */
  levelsOffered(kind) {
    return this.atTarget(kind, "target_levels")?.[this.rules.value]
      ?? setup.rules_levels?.[kind]?.[this.rules.value] ?? setup.levels[kind] ?? [];
  }

  /** Whether this server is building the table the rules chosen wait for (in 10 000, that
   * of the target chosen). */
  preparing(kind) {
    const named = this.atTarget(kind, "target_preparing") ?? setup.rules_preparing?.[kind] ?? [];
    return named.includes(this.rules.value);
  }

  /** In 10 000, what the setup's `field` (by target) says of the target chosen; else null. */
  atTarget(kind, field) {
    return kind === "10000" ? setup[field]?.[this.form.elements.target.value] : null;
  }

  /** The options of a level select for the game `kind`, each saying what it does. */
  options(kind) {
    return this.levelsOffered(kind).map((level) => {
      const words = t(`level-${kind}-${level}`);
      return h("option", { value: level }, words === `level-${kind}-${level}` ? level : words);
    });
  }

  hints() {
    return [...this.list.querySelectorAll("input[name=hint]")];
  }

  /** Remove a row; the names below move up so the boxes stay Oyuncu 1 … n. */
  removeName(row) {
    const values = this.names().map((input, i) => [input.value, this.hints()[i].checked]);
    const index = [...this.list.children].indexOf(row);
    values.splice(index, 1);
    this.list.replaceChildren();
    values.forEach(([value, hinted]) => {
      this.addName(hinted);
      this.names().at(-1).value = value;
    });
    (this.names().at(Math.max(0, index - 1)) ?? this.add).focus();
    this.fit();
  }

  /** Show the choices of the game picked: its rules, its computer levels under them, the
   * target or the auto-fill. */
  changed() {
    const kind = this.form.elements.game.value;
    const names = setup.rules[kind] ?? [];
    this.rules.replaceChildren(...names.map((name) => h("option", { value: name }, t(`rules-${kind}-${name}`))));
    this.rules.value = this.chosenRules[kind] ?? setup.default_rules[kind];
    this.rulesAbout.textContent = [t(`rules-${kind}-${this.rules.value}-about`),
      ...(this.preparing(kind) ? [t("rules-preparing")] : [])].join(". ");
    // Each level says what it does; each game keeps its own choice, or its own default,
    // when its rules offer it (else their first).
    const levels = this.levelsOffered(kind);
    const offered = (level) => (levels.includes(level) ? level : levels[0]);
    this.level.replaceChildren(...this.options(kind));
    this.level.value = offered(this.levels[kind] ?? setup.default_level[kind]);
    for (const select of this.more.querySelectorAll("select")) {
      select.replaceChildren(...this.options(kind));
      select.value = offered(setup.default_level[kind]);
    }
    this.fit();
    this.form.querySelector(".choice-target").hidden = kind !== "10000";
    this.form.querySelector(".choice-autofill").hidden = kind !== "yams";
  }

  async submit() {
    const form = this.form.elements;
    const kind = form.game.value;
    const players = this.names().map((input, i) => input.value.trim() || t("player-n", { n: i + 1 }));
    const body = {
      game: kind,
      rules: this.rules.value,
      players,
      hints: players.filter((_, i) => this.hints()[i].checked),
      computers: this.chosenLevels(),
    };
    if (kind === "10000") body.target = Number(form.target.value);
    else body.autofill = form.autofill.value === "off" ? null : Number(form.autofill.value);
    this.start.disabled = true;
    const response = await post("/api/games", body);
    this.start.disabled = false;
    if (!response.ok) {
      this.error.textContent = response.data.detail;
      return;
    }
    this.el.close();
    this.onCreated(response.data);
  }
}
