/** The webhook name rule (spec 4.8), pure so REST, tRPC and the dashboard's form share it. */

export const WEBHOOK_NAME_MAX = 80;
/** The platform's two reserved brand words: no webhook name may contain them, in any case or disguise (spec 4.8). */
const WEBHOOK_RESERVED_WORDS = ["clyde", "discord"] as const;

/**
 * Characters that show nothing, not even a gap: Unicode's default-ignorables (zero-width
 * spaces and joiners, bidi and other format controls, variation selectors, Hangul fillers,
 * tags), the remaining format and control characters, and the blank Braille pattern.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\u2800]/gu;
const COMBINING_MARKS = /\p{M}/gu;

/**
 * Letters that look like the Latin ones of the reserved words but that compatibility
 * normalization (NFKC, which already folds full-width, mathematical, circled and
 * superscript letters) leaves alone: Cyrillic, Greek, Armenian, Cherokee, Lisu and
 * small-capital look-alikes, from Unicode's confusables list (UTS #39). `i`, `l`, `1`, `|`
 * and their look-alikes are one letter here, as UTS #39 treats `I`, `l` and `1` as one; so
 * are `o` and `0`. Keys are the look-alikes themselves (a Cyrillic `а`, not the Latin one).
 * The npm packages carrying the whole list are years behind Unicode, hence this short table.
 */
// prettier-ignore
const LOOK_ALIKES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  // a c d e
  а: "a", ɑ: "a", α: "a", ꓮ: "a",
  с: "c", ϲ: "c", Ϲ: "c", ᴄ: "c", Ꮯ: "c", ꓚ: "c", ⅽ: "c",
  ԁ: "d", Ԁ: "d", Ꭰ: "d", ꓓ: "d", ᴅ: "d", ɗ: "d",
  е: "e", Ε: "e", Ꭼ: "e", ꓰ: "e", ᴇ: "e", ҽ: "e",
  // i and l, and what looks like either
  i: "l", ı: "l", ɩ: "l", ɪ: "l", і: "l", ι: "l", Ι: "l", ӏ: "l", Ӏ: "l", Ꭵ: "l", ǀ: "l", ʟ: "l", Ꮮ: "l", ꓡ: "l", ꓲ: "l",
  "1": "l", "|": "l", "׀": "l", "ا": "l", ߊ: "l",
  // o r s y
  о: "o", ο: "o", Ο: "o", օ: "o", ᴏ: "o", ꓳ: "o", "0": "o", "০": "o", "٥": "o", "۵": "o",
  г: "r", ᴦ: "r", ʀ: "r", ꓣ: "r", Ꭱ: "r",
  ѕ: "s", Ѕ: "s", ꜱ: "s", Ꮪ: "s", ꓢ: "s", ʂ: "s",
  у: "y", ү: "y", Ү: "y", γ: "y", Υ: "y", ʏ: "y", Ꭹ: "y", ꓬ: "y", ყ: "y",
});

/** The text without the characters that show nothing. */
function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

/** What a name reads as: invisible characters and accents dropped, look-alikes folded, in lower case. */
function readsAs(name: string): string {
  const plain = withoutInvisible(name.normalize("NFKC")).normalize("NFD").replace(COMBINING_MARKS, "");
  let folded = "";
  for (const char of plain) {
    const lower = char.toLowerCase();
    folded += LOOK_ALIKES[char] ?? LOOK_ALIKES[lower] ?? lower;
  }
  return folded;
}

const RESERVED = WEBHOOK_RESERVED_WORDS.map((word) => ({ word, reads: readsAs(word) }));

/**
 * Why a webhook name (already trimmed, inner whitespace made one space) is refused, or null:
 * BASE_TYPE_BAD_LENGTH when it is empty once invisible characters are removed or longer
 * than 80; USERNAME_INVALID_CONTAINS when it reads as containing a reserved word, whatever
 * letters or invisible characters it is written with.
 */
export function webhookNameProblem(name: string): { code: string; message: string } | null {
  const length = [...name].length;
  if (length > WEBHOOK_NAME_MAX || withoutInvisible(name).trim() === "") {
    return { code: "BASE_TYPE_BAD_LENGTH", message: `Must be between 1 and ${WEBHOOK_NAME_MAX} in length.` };
  }
  const reads = readsAs(name);
  const reserved = RESERVED.find((entry) => reads.includes(entry.reads));
  return reserved ? { code: "USERNAME_INVALID_CONTAINS", message: `Username cannot contain "${reserved.word}"` } : null;
}
