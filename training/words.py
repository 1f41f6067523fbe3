"""Word lists of the corpus generator, written for training alone.

They share no entry with evals/perturb/ or pipeline/english/ (tests/training/test_words.py
checks every entry), so the reader never learns the exact phrasings the evaluation perturbs
with or the rule reader keys on. Slot values are deliberately varied and a little odd.
"""

from __future__ import annotations

# The lists are kept packed: one entry a line would make this file four times longer.
# fmt: off

# --- slot values ------------------------------------------------------------------------

DAY_NAMES = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
)

# Offers of facts no template states: the companion's turn varies more than the facts do.
OFFER_VERBS = (
    "cycle to", "volunteer at", "collect", "teach", "grow", "dislike", "adore", "visit",
    "sing in", "train for", "listen to", "drive a", "repair", "bake", "coach", "study",
)
OFFER_OBJECTS = (
    "work on Tuesdays", "the food bank", "vinyl records", "year 9 maths", "chillies on the balcony",
    "loud restaurants", "jazz", "your gran every Sunday", "a community choir", "a half marathon",
    "true crime podcasts", "a red Fiat", "old radios", "sourdough at weekends", "the under-12s",
    "for a nursing degree",
)

# --- project domains (add_knowledge) ---------------------------------------------------------

# --- framings ------------------------------------------------------------------------------

# Statements that frame a fact (the fact follows).
FACT_LEADS = (
    "just so u know, ", "fyi: ", "for the record, ", "heads up, ", "note to self but ",
    "worth knowing: ", "thought you should know ", "random but ", "oh btw ", "so basically ",
    "small thing, ", "one more thing: ", "so yeah ", "fun fact: ", "update on me: ",
    "you should probably know that ", "in case it matters, ", "not sure if I said but ",
    "background info: ", "something about me: ", "for context ", "ok so like ", "quick fact, ",
    "also relevant: ", "about me — ", "PSA ", "mention this once: ",
)
# Requests phrased as questions: a request, never a question (the fact follows; "?" closes).
POLITE_KEEP = (
    "could u remember that ", "would you mind noting that ", "can you keep a note that ",
    "could you hang on to the fact that ", "would u be able to remember ",
    "mind jotting down that ", "can u save that ", "is it ok if you keep in mind that ",
    "would you be so kind as to remember that ", "could you file away that ",
    "pls can u remember ", "can you make a mental note that ", "could you store that ",
    "would you keep track of the fact that ", "can you add to my profile that ",
    "is there any way you could remember that ", "could u log that ", "mind keeping in mind ",
    "would you be able to hold onto this: ", "can you not forget that ", "could you take note: ",
    "please could you remember that ", "could I ask you to remember that ",
    "any chance you could save that ", "can u keep this in ur memory: ",
)

POLITE_FORGET = (
    "would you mind forgetting ", "could u drop ", "can you wipe ", "could you lose ",
    "would it be possible to erase ", "mind getting rid of ", "can u scrub ",
    "could you stop holding on to ", "could u forget ", "can you delete the memory of ",
    "would you please get rid of ", "is it possible to wipe ", "could you kindly erase ",
    "can u bin ", "would u mind scrapping ", "could you take out ", "can you unlearn ",
)

PLAIN_FORGET = (
    "pls forget ", "please get rid of ", "wipe out ", "scrub out ", "I want you to forget ",
    "stop keeping hold of ", "clear out ", "erase what you have about ", "no longer keep ",
    "pls forget about ", "please wipe ", "pls scrap ", "chuck ", "get shot of ", "please unlearn ",
    "I'd like you to delete ", "you can forget ", "kindly purge ",
    "please remove what you know about ", "do not keep ", "nuke ", "delete everything re ",
)

RECALL_ASKS = (
    "what did i tell u about ", "do you still have ", "remind me what I said about ",
    "what have you got on ", "did I ever mention ", "what do u know re ",
    "can you pull up what I said about ", "have I told you about ", "what do u have on ",
    "what did I say about ", "remind me about ", "do you remember anything about ",
    "what have I mentioned re ", "anything saved about ", "tell me what you know about ",
    "did I say anything about ", "what was it I told you about ", "could you recall ",
    "what do you remember of ", "whats saved on ", "bring up ", "do u recall ",
)

RESTORE_ASKS = (
    "put #{n} back", "wait nvm put it back", "can you recover the {topic} one",
    "undo that, bring it back", "actually restore #{n}", "bring back the bit about {topic}",
    "oops I didn't mean that, put it back", "un-forget the {topic} thing pls",
    "could you reinstate #{n}?", "hmm no, put the {topic} one back",
)

SMALL_TALK = (
    "ugh the weather is trash today", "not in the mood for anything tbh", "what a week honestly",
    "lol my bus was late again", "ok that's hilarious", "meh, mondays", "haha fair enough",
    "I can't be bothered with anything today", "today has been a lot", "wow the sunset tho",
    "oh great, another meeting. love that for me", "sure, because everything's going SO well",
    "I'm not hungry, I'm just bored", "I'm not a morning person today, that's all",
    "yeah right, as if the train will be on time", "my coworker says she hates mondays",
    "I'm so tired I could cry", "ugh I'm starving", "I'm bored out of my skull", "brb",
    "I'm just sat here eating crisps", "honestly I'm fine, just a long day", "I'm freezing lol",
    "lmao I just walked into a door", "I'm not even mad, just disappointed", "rip my sleep",
    "my neighbour's dog won't stop barking again", "I'm sooo done with this week",
    "my sister thinks I'm dramatic", "I'm feeling a bit meh", "I'm in a weird mood",
    "well that went badly", "I'm not saying I'm a genius but I fixed the printer",
    "my {relative} says hi", "I'm kidding obviously", "I might go out later, dunno",
)

HYPOTHETICALS = (
    "if I moved to {city} I'd get a {pet}", "imagine if I was {job}",
    "suppose I took up {hobby}, would that be mad", "if I were allergic to {food} I'd be doomed",
    "what if I dyed my hair blue", "say I quit tomorrow, hypothetically",
)

REPORTED = (
    "my boss told me to tell you: {fact}", "someone online said to paste this: {fact}",
    "my {relative} reckons I should learn {language}", "a guy at work thinks {fact}",
    "copying this from an email — {fact}",
)

QUESTION_JOINS = (
    " — and ", ". also ", ", oh and ", "! btw ", "... anyway ",
)

# --- answers to something pending -----------------------------------------------------------

AFFIRMS = (
    "yes that's it", "yup spot on", "yeah go on then", "yes please do", "100%", "correctamundo",
    "that is entirely accurate", "affirmative", "bang on", "uh huh", "yea", "ye", "yesss", "YESSS",
    "yass", "mhm", "you got it right", "too right", "that's the one alright", "defo", "aye",
    "that's accurate", "quite right, yes", "sounds right to me", "yes indeed it is",
    "go for it yes", "please keep that", "keep it pls", "yep save it", "ok do that",
    "ok sure thing", "spot on thanks", "I can confirm that", "that would be correct", "righto",
)

AFFIRM_FOREIGN = (
    "sí", "oui", "ja", "da", "haan", "hai", "sim", "tak", "evet", "naam", "ndiyo",
)

AFFIRM_EMOJI = (
    "👍", "✅", "👌", "🙌", "💯", "✔️", "🆗",
)

REJECTS = (
    "no don't keep that", "nah leave it", "thanks but no", "don't bother", "please don't save that",
    "I'd rather you didn't", "scratch that, don't keep it", "nope not needed", "no need for that",
    "pass", "I'll pass", "no, leave that out", "that's not something to keep",
    "not that one please", "nah forget about it", "leave it out thanks",
    "I do not wish that to be kept", "no that's wrong", "that's off, just drop it", "nah not right",
)

REJECT_FOREIGN = (
    "nein", "non", "nee", "nie", "hayır", "nahi", "iie", "não",
)

REJECT_EMOJI = (
    "❌", "👎", "🙅", "✖️", "🚫",
)

CORRECTION_LEADS = (
    "no, it's ", "nah it's ", "sorry, it's ", "apologies, ", "my bad, ", "oops, I meant ",
    "actually it's ", "sorry I misspoke — ", "small correction: ", "ah no, ", "I beg your pardon, ",
    "hmm not quite, ", "so sorry, it's ", "wait no, ", "to clarify, ", "I should have said ",
    "typo, ", "nope it's ", "close but it's ", "ugh autocorrect, ", "correction - ",
    "I misspoke, it's ", "Apologies for the confusion, it is ", "no no, ", "oh wait, it's ",
    "not quite right — ", "erm, ", "that should be ", "haha no, ", "my mistake, it's ",
)

CORRECTION_TAILS = (
    "", " not {old}", " instead of {old}", ", not {old}", " rather than {old}",
)

CONFIRM_RETRACTION = (
    "yes forget it", "yep that one", "yes wipe it", "that's the one, go ahead", "correct, lose it",
    "yes please remove it", "go ahead and do it", "yeah bin it",
)

REJECT_RETRACTION = (
    "no keep it", "wait no don't", "hold on, leave it", "actually keep that one",
    "no no, don't delete it", "never mind, leave it there",
)

CROSS_YES = (
    "yes everywhere", "yes, all projects", "sure, keep it across the board", "yes for all of them",
)

CROSS_NO = (
    "just this project", "no only here", "keep it to this one", "nah just for this",
)

ALL_PICKS = (
    "all {k} are right", "all {k} of them", "all of em", "both", "both are right",
    "every single one", "keep the lot", "all {k} pls", "all {k}", "the whole lot", "yes to all {k}",
)

NONE_PICKS = (
    "none of them", "neither", "none pls", "none of those",
)

ORDINALS = (
    "first", "second", "third", "fourth", "fifth",
)

PICK_FORMS = (
    "#{a}", "#{a} and #{b}", "just the {ord} one", "only {a}", "{a} and {b} pls", "keep {a}",
    "number {a}", "the {ord}", "{a} only", "just {a} and {b}", "{a}, {b}",
)

# --- style pieces -----------------------------------------------------------------------------

TEXTING_SWAPS = {
    "you": "u", "your": "ur", "please": "pls", "thanks": "ty", "tomorrow": "tmr", "because": "cuz",
    "really": "rly", "probably": "prob", "before": "b4", "people": "ppl", "something": "smth",
    "about": "bout", "okay": "k", "know": "kno", "though": "tho",
}

VOICE_FILLERS = (
    "um", "uh", "so yeah", "like", "y'know", "er", "basically",
)

HEDGES = (
    "I think that ", "pretty sure ", "if I remember right ", "not 100% but ", "I reckon ",
)

GREETINGS_FORMAL = (
    "Dear assistant, ", "Good afternoon. ", "To whom it may concern: ", "Hello there. ",
)

SIGNOFFS_FORMAL = (
    " Kind regards.", " Many thanks in advance.", " Yours sincerely.", " Best wishes.",
)

FORMAL_KEEP = (
    "I would be grateful if you could record that ", "Please be advised that ",
    "I wish to inform you that ", "Kindly make a note that ",
)

SWITCH_OPENERS = (
    "bueno, ", "genau, ", "alors ", "yaani ", "achha ", "vale, ", "allora ",
)

EMOJI_TAILS = (
    "😅", "🙏", "😂", "🥲", "✨", "🐶", "🍕", "😤", "🤞",
)

SLANG_OPENERS = (
    "not gonna lie ", "lowkey ", "fr fr ", "deadass ", "bro ", "istg ",
)

JARGON_OPENERS = (
    "circling back on this: ", "quick sync — ", "for visibility, ", "as an action item, ",
    "per my last message, ",
)

DIGRESSIONS = (
    "oh dear, where was I, ", "now my late husband always said this but ",
    "bear with me, my eyes aren't great, ", "as I was telling the lady at church, ",
)

# Single everyday words the rule reader's or the perturbations' lists also hold (weekdays,
# kin, ordinals, pronoun sets, the commonest texting forms), and names the code uses as
# identifiers (profile fields, style names). They are the language's words, not a copied
# list: tests/reader/test_reader_words.py allows a shared single word only if it is named
# here, and no shared phrase at all.
COMMON_WORDS = frozenset(
    {
        "fridays", "mondays", "saturdays", "thursdays", "tuesdays", "wednesdays", "monday",
        "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "aunt", "brother",
        "dad", "daughter", "husband", "mum", "partner", "sister", "son", "uncle", "wife", "first",
        "second", "third", "fourth", "fifth", "both", "neither", "he/him", "she/her", "they/them",
        "xe/xem", "cat", "roof", "budget", "noon", "broke", "about", "because", "before", "know",
        "like", "people", "please", "really", "something", "thanks", "tomorrow", "you", "your",
        "okay", "u", "ur", "pls", "ppl", "tho", "though", "tmr", "cuz", "b4", "k", "um", "uh", "er",
        "basically", "mhm", "yea", "aye", "affirmative", "pass", "bake", "coach", "morning",
        "short", "language", "none", "emoji", "texting", "typos", "voice",
        "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december", "two", "three", "four", "seven", "eight", "ten",
        "twelve", "twenty", "thirty", "spring", "summer", "autumn", "winter", "afternoon",
        "midnight", "weekends", "sundays", "ankle", "hip", "knee", "shoulder", "wrist", "boss",
        "car", "train", "mate", "grandma", "neighbour", "birthday", "bit", "job", "note", "one",
        "plan", "stuff", "that", "the", "thing", "day", "month", "name", "and", "haha", "just",
        "n", "kindly", "plz",
    }
)
