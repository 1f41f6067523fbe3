"""Shapes of talk beside the facts, written for training alone: first-person project notes,
questions behind a hypothetical, a disclaimer or a mood (nothing to keep), and more ways to
ask to forget or to recall. The words test checks every entry.
"""

from __future__ import annotations

# fmt: off

# --- first-person project notes (add_knowledge; the KNOWLEDGE span is the whole statement) --

CODE = (
    "Rust", "Golang", "TypeScript", "Python", "Elixir", "Kotlin", "Swift", "Haskell", "C#", "Lua",
)
TEMPOS = ("90", "120", "84", "140", "72", "105", "96")
PLATFORMS = ("web", "iOS", "Android", "Steam", "Etsy", "the app store", "Shopify", "desktop")
TEMPERATURES = ("220 degrees", "180C", "gas mark 6", "200 fan", "160 degrees", "250C")

OWN_NOTES = (
    "I'm writing the {part} in {code}", "I ordered {material} for the {part}",
    "I've booked {place} for {deadline}", "I'm aiming to finish the {part} by {deadline}",
    "I'm tracking the {part} at {bpm} bpm", "we're launching on {platform} first",
    "I went with {tool} for the {part}", "I've switched the {part} over to {tool}",
    "I picked {colour} for the {part}", "I've cut the {part} down to {measure}",
    "I'm sourcing the {material} from {supplier}", "I paid {money} for the {part}",
    "I moved the {part} to {place}", "I've asked {person} to handle the {part}",
    "I'm keeping the {part} under {money}", "I settled on {measure} for the {part}",
    "we're shipping the {part} before {deadline}", "I've decided to drop {tool}",
    "I'm building the {part} out of {material}", "I rewrote the {part} in {code}",
    "I'm testing the {part} with {tool}", "I've pushed the {part} back to {deadline}",
    "we've signed {supplier} for the {part}", "I set the {part} to {measure}",
    "I've got {person} reviewing the {part}", "I'm baking the {part} at {temp}",
    "I'm painting the {part} {colour}", "I'm storing the {part} files in {place}",
    "we're targeting {platform} for the {part}", "I've capped the {part} at {money}",
    "I'm recording the {part} in {place}", "I've hired {person} for the {part}",
    "I scheduled the {part} review for {day}", "I'm treating the {part} with {tool}",
    "I've sketched the {part} in {tool}", "I'm doing the {part} in {material} now",
    "I'm presenting the {part} at {place} on {deadline}", "I've budgeted {money} for the {part}",
    "I swapped {tool} out for something cheaper on the {part}",
    "we're releasing the {part} on {platform} by {deadline}", "I mixed the {part} at {bpm} bpm",
    "I've put {measure} into the {part}", "I'm getting the {material} delivered to {place}",
)

OWN_NOTE_LEADS = (
    "", "", "", "", "right so, ", "okay here's one: ", "update: ", "quick update, ",
    "progress report: ",
    "for the project, ", "right, ", "news on this one: ", "small change: ", "latest: ",
)

# --- questions behind a hypothetical, a disclaimer or a mood (general_conversation) ----------
# (what comes first, the question itself): the QUESTION span is the second part.

MENTION_QUESTIONS = (
    ("if I moved to {city}, ", "would I need a car there"),
    ("if I took a year off work, ", "how would I explain the gap on my CV"),
    ("if I started running every morning, ", "how soon would I notice a difference"),
    ("if we got a {pet}, ", "who would look after it when we travel"),
    ("suppose we drove to {country} in {month}, ", "what should we pack"),
    ("suppose I learned {language}, ", "how long before I could hold a conversation"),
    ("suppose we painted the lounge {colour}, ", "what kind of curtains would suit it"),
    ("what if I gave up sugar for a month, ", "would I actually feel better"),
    ("what if I went vegan, ", "how would I get enough protein"),
    ("what if I retrained as {job}, ", "would I be too old"),
    ("imagine I bought {thing}, ", "how would I justify it to myself"),
    ("imagine I won the lottery, ", "how should I spend the first week"),
    ("say I wanted to try {hobby}, ", "where would I start"),
    ("hypothetically, if I ate {food} every day, ", "would that be bad for me"),
    ("if I were to get up at 5, ", "would I be more productive"),
    ("if I didn't have to work, ", "what do you think I'd do all day"),
    ("what if we skipped the holiday this year, ", "would the kids mind much"),
    ("if I sold my car, ", "how would I get to the big shops"),
    ("I'm not pregnant, just curious — ", "can you eat {food} when you are"),
    ("I'm not ill or anything, just wondering: ", "how long does a cold usually last"),
    ("I'm not vegetarian, just curious, ", "where do vegetarians get their iron"),
    ("I'm not planning anything, but ", "how much does a wedding cost these days"),
    ("not that I'm thinking of leaving, but ", "how much notice do people usually give"),
    ("not that I'd ever do it, but ", "how hard is it to learn to skydive"),
    ("not that I own one, but ", "does a {pet} need a lot of attention"),
    ("not that I'm worried, but ", "is it normal for a headache to last two days"),
    ("I don't drink coffee myself, but ", "why does it keep people awake"),
    ("I don't do {hobby} myself, but ", "what makes it so popular"),
    ("I don't have kids myself, but ", "what age do children start school here"),
    ("I don't speak {language} myself, but ", "is it hard to pick up"),
    ("I'm wiped out today, ", "should I skip the gym"),
    ("I'm feeling a bit low, ", "any ideas for cheering myself up"),
    ("I'm so stressed about {day}, ", "how do people calm down before a big day"),
    ("I'm knackered, ", "is a nap at 4pm a bad idea"),
    ("I'm bored stiff, ", "what could I do this afternoon"),
    ("I'm a bit nervous about tomorrow, ", "what's a good way to steady my nerves"),
    ("I'm grumpy this morning, ", "why do some people wake up in a bad mood"),
    ("", "can you explain {explain} to me"),
    ("", "is it normal for a {pet} to sleep all day"),
    ("", "could you tell me how {explain} works"),
    ("", "help me understand {explain}"),
    ("", "is it normal for my knees to click when I squat"),
    ("", "is it bad if I sleep with the window open in winter"),
    ("honestly I'm curious, ", "what makes {food} so moreish"),
    ("asking for a friend, ", "how do you tell someone their breath smells"),
    ("I've always wondered, ", "why do onions make me cry"),
    ("just out of interest, ", "how many people live in {city}"),
    ("if I visited {city} for a weekend, ", "what should I see"),
    ("suppose I left my passport at home, ", "what would happen at the airport"),
    ("what if I planted tomatoes in {month}, ", "would they still grow"),
    ("imagine I'm giving a speech at a wedding, ", "how long should it be"),
    ("I'm not sure I'd ever do it, but ", "what's it like to live on a boat"),
    ("I'm just curious, I'm not allergic, ", "what happens in an allergic reaction"),
    ("say we had {n} guests, ", "how much pasta would we need"),
    ("in theory, if I worked four days a week, ", "would I get the same holiday"),
    ("I'm half asleep, ", "remind me how many ounces are in a pound"),
)

EXPLAIN = (
    "compound interest", "the offside rule", "photosynthesis", "inflation", "blockchains",
    "jet lag", "the electoral college", "tides", "sourdough fermentation", "credit scores",
    "black holes", "the immune system", "tax codes", "noise-cancelling headphones",
)

# --- forget: whole frames (head, description, tail); the FORGET span is the description ----

FORGET_FRAMES = (
    ("you don't need to keep ", "my {owned}", " on file anymore"),
    ("you don't need to keep the bit about ", "{topic}", " in there any more"),
    ("I'd rather you didn't hold on to ", "my {owned}", ""),
    ("I'd rather you didn't keep that ", "{said}", ""),
    ("drop the bit about ", "{topic}", ""), ("", "{said}", " isn't true anymore, forget it"),
    ("it's no longer the case that ", "{said}", ", so forget that"),
    ("that thing about ", "{topic}", ", let it go"),
    ("you can stop remembering ", "my {owned}", ""),
    ("please take ", "my {owned}", " out of your memory"),
    ("you can leave ", "{topic}", " out of it from now on"),
    ("I've changed my mind about sharing ", "my {owned}", ", delete it"),
    ("can we pretend I never said ", "{said}", "?"), ("that ", "{said}", " is out of date, bin it"),
    ("please don't remember ", "my {owned}", " after today"), ("wipe the note that ", "{said}", ""),
    ("I don't want you storing ", "my {owned}", ""),
    ("get rid of whatever you have on ", "{topic}", ""), ("erase the line about ", "{topic}", ""),
    ("I regret telling you ", "{said}", ", please forget it"),
    ("there's no need to remember ", "{topic}", " these days"),
    ("", "my {owned}", " is none of your business anymore, delete it"),
    ("throw away what I told you about ", "{topic}", ""),
    ("", "{topic}", " — not relevant anymore, remove it"),
)

NOTE_FORGET_FRAMES = (
    ("please scratch ", "{topic}", " from the notes"),
    ("the note that ", "{note}", " is wrong, take it out"),
    ("drop the ", "{topic}", " note, it's outdated"),
    ("we're not doing ", "{topic}", " anymore, remove it"),
    ("can you take ", "{topic}", " off the list"), ("cross out the note about ", "{topic}", ""),
    ("", "{note}", " isn't true anymore, delete that note"),
    ("get the ", "{topic}", " note out of here"),
    ("strike the ", "{topic}", " entry from the list"),
    ("you can lose the note on ", "{topic}", ""),
    ("the ", "{topic}", " note can go"), ("that bit about ", "{topic}", " is obsolete, remove it"),
)

# --- recall: (head, tail) around the topic, the QUERY span ----------------------------------

RECALL_FRAMES = (
    ("when did I tell you about ", ""), ("what date did I give you for ", ""),
    ("how much did I tell you ", " cost"), ("search my notes for what I said about ", ""),
    ("what name did I give you for ", ""), ("what was the deal with ", " again, remind me"),
    ("you had something on ", ", what was it"), ("did I tell you anything about ", " or not"),
    ("look back at what I said on ", ""), ("what's the latest I told you on ", ""),
    ("I told you something about ", " once, what was it"),
    ("go through what I told you about ", ""),
    ("what do my notes say about ", ""), ("I forget what I told you re ", ""),
    ("what's on file about ", ""), ("check what I said about ", ""),
    ("what time did I give you for ", ""), ("when did I say ", " was happening"),
    ("what did I decide about ", ""), ("did I ever give you details on ", ""),
    ("find what I said regarding ", ""), ("jog my memory — what did I tell you about ", ""),
    ("what were my exact words about ", ""), ("have you got anything stored on ", ""),
    ("what number did I give you for ", ""),
)
# fmt: on
