// How the page words a move the rules refuse, from the engine's own refusal.

/** A refusal from the server (an error frame: the engine's words in `message` and
 * `message_ru`) inside a sentence: its first word in lower case, unless that word is a
 * card or a name ("Q♠ ...", "Ann 2 ..."). */
export function refusalText(why, language) {
  const words = (language === "ru" && why.message_ru) || why.message || "";
  return /^\p{Lu}\p{Ll}+\s/u.test(words) && !/^\p{Lu}\p{Ll}+\s\d/u.test(words)
    ? words[0].toLocaleLowerCase(language) + words.slice(1)
    : words;
}
