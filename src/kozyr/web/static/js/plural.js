// Counted nouns and declined names, in English and Russian. Pure functions of their
// arguments (the language included), so a test can load this module alone.

// Forms by Intl.PluralRules category. Russian: one (1, 21), few (2-4, 22), many (5-20, 25),
// other (fractions; never met here but the rules name it).
const NOUNS = {
  card: { en: ["card", "cards"], ru: ["карта", "карты", "карт"] },
  // accusative: "offers you 1 trick" is "предлагает вам 1 взятку"
  trick: { en: ["trick", "tricks"], ru: ["взятка", "взятки", "взяток"] },
  trick_acc: { en: ["trick", "tricks"], ru: ["взятку", "взятки", "взяток"] },
  point: { en: ["point", "points"], ru: ["очко", "очка", "очков"] },
  imperial: { en: ["imperial", "imperials"], ru: ["империал", "империала", "империалов"] },
  // genitive: "play to 1 imperial" is "игра до 1 империала" (2 and 5 alike: "империалов")
  imperial_gen: { en: ["imperial", "imperials"], ru: ["империала", "империалов", "империалов"] },
  round: { en: ["round", "rounds"], ru: ["тур", "тура", "туров"] },
  deal: { en: ["deal", "deals"], ru: ["сдача", "сдачи", "сдач"] },
  player: { en: ["player", "players"], ru: ["игрок", "игрока", "игроков"] },
  spectator: { en: ["spectator", "spectators"], ru: ["зритель", "зрителя", "зрителей"] },
  second: { en: ["second", "seconds"], ru: ["секунда", "секунды", "секунд"] },
};

const rules = {};

function category(n, lang) {
  const key = lang === "ru" ? "ru" : "en";
  rules[key] ||= new Intl.PluralRules(key === "ru" ? "ru-RU" : "en-US");
  return rules[key].select(n);
}

/** The noun for a count, without the number: ("card", 4, "ru") -> "карты". */
export function nounFor(noun, n, lang) {
  const forms = NOUNS[noun];
  if (!forms) return noun;
  const cat = category(Number(n), lang);
  if (lang === "ru") {
    const [one, few, many] = forms.ru;
    return cat === "one" ? one : cat === "few" ? few : cat === "many" ? many : few;
  }
  return cat === "one" ? forms.en[0] : forms.en[1];
}

/** A count with its noun: (4, "card", "ru") -> "4 карты"; (1, "card", "en") -> "1 card". */
export function countOf(n, noun, lang) {
  return `${n} ${nounFor(noun, n, lang)}`;
}

export function hasNoun(noun) {
  return Object.hasOwn(NOUNS, noun);
}

// Russian cases of the names the page makes itself ("Компьютер 2", "Место 3"); a person's
// own name is left as he wrote it (declining arbitrary names guesses wrong too often).
const DECLINED = [
  // [nominative stem, {case: ending}]
  ["Компьютер", { gen: "Компьютера", dat: "Компьютеру", acc: "Компьютер", ins: "Компьютером" }],
  ["Место", { gen: "Места", dat: "Месту", acc: "Место", ins: "Местом" }],
];

/** A name in a Russian case: ("Компьютер 2", "gen") -> "Компьютера 2". Other languages and
 * names not made by the page come back unchanged. */
export function declineName(name, grammaticalCase, lang) {
  if (lang !== "ru" || !grammaticalCase || grammaticalCase === "nom") return name;
  // a name that knows its own cases (a lesson's "Борис": "Бориса", "Борису", "Борисом")
  if (name?.cases?.[grammaticalCase]) return name.cases[grammaticalCase];
  const text = String(name);
  for (const [stem, cases] of DECLINED) {
    const m = text.match(new RegExp(`^${stem}( \\d+.*)$`));
    if (m && cases[grammaticalCase]) return cases[grammaticalCase] + m[1];
  }
  return text;
}
