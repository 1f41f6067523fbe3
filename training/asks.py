"""Phrasings of the spanless intents (lists, commits, capabilities, reminders, searches,
shares, exports) and the slot values only they use, written for training alone.

Each list holds requests and questions of many shapes: imperatives, "can you …?", "could you
…", "I need you to …", "would it be possible to …". Slots ({day}, {time}, {name}, {city},
{topic}, {project}, {appt}, {subject}, {format}, …) are filled by training/scenes.py. The
words test (tests/reader/test_reader_words.py) checks every entry.
"""

from __future__ import annotations

# fmt: off

# --- slot values --------------------------------------------------------------------------

PROJECTS = (
    "garden", "wedding", "kitchen", "podcast", "app", "allotment", "thesis", "shed", "EP",
    "bakery", "quilt", "fundraiser", "loft", "novel", "website", "house move", "bathroom",
    "choir concert", "boat", "conference",
)

APPOINTMENTS = (
    "dentist appointment", "physio", "haircut", "GP appointment", "eye test", "driving lesson",
    "parents' evening", "job interview", "blood test", "vet appointment", "MOT", "flu jab",
    "therapy session", "piano lesson", "boiler service", "meeting with the landlord",
    "orthodontist visit", "hearing test", "smear test", "optician", "mortgage call",
    "yoga class", "scan at the hospital", "school pickup",
)

SUBJECTS = (
    "the best walking boots under a hundred quid", "bus times from the airport",
    "ticket prices for the aquarium", "how to descale a kettle", "symptoms of hay fever",
    "the history of the penny farthing", "grants for heat pumps", "the bin collection dates",
    "vegan places near the station", "the population of Iceland", "whether dogs can eat mango",
    "second-hand sofas", "plumbers with decent reviews", "the exchange rate for yen",
    "museums that open late", "festival line-ups this summer", "how tall the Shard is",
    "the rules of pickleball", "train strikes this week", "what time the match kicks off",
)

SHOPS = (
    "post office", "pharmacy", "tip", "town library", "garden centre", "leisure centre",
    "hardware shop", "bank", "farm shop", "swimming pool",
)

FORMATS = (
    "pdf document", "PDF file", "csv sheet", "spreadsheet file", "Word doc", "markdown file",
    "plain text file", "Google Doc", "json file", "zip archive", "docx", "printable page",
    "slide deck", "Excel workbook",
)

# --- the spanless intents -------------------------------------------------------------------

LIST_ASKS = (
    "pull up the notes for this project", "pull up everything on the {project} project",
    "let me see the {project} notes", "let me see what we've got written down",
    "what have we got for this one so far?", "what have we got on the {project} so far",
    "can you list everything saved in this project?", "could you show me all the notes here",
    "I need to see the full list of notes",
    "would it be possible to see every note for the {project}?",
    "read me back the project notes", "run through all the notes we've made",
    "show the {project} project notes", "what's written down for the {project}?",
    "give me a rundown of everything in this project", "list every note, numbered",
    "what's on the list for this project?", "can I get an overview of the notes",
    "print the notes out for me", "go over everything we've recorded here",
    "recap all the project notes", "where are we with the notes? show me the lot",
    "I'd like to review the notes for this project", "bring up the {project} list",
    "every note in here please", "what's been logged for this project?", "display the notes",
    "open the {project} notes", "I want to look over all the notes",
    "could you pull the whole note list up?", "what's in the {project} file?",
    "show me everything we've noted down for the {project}", "let's see the list",
    "what notes have we got?", "I need you to list what's in here",
    "show me everything in this project", "list the project notes pls", "what's in here so far?",
    "dump all the notes for this one", "can I see the notes", "gimme the full list of notes",
)

COMMIT_ASKS = (
    "lock in #{n}", "make #{n} final", "mark all of those as settled", "finalise number {n}",
    "set #{n} in stone", "those are good, lock them in",
    "make the note about the {topic} final", "the {topic} is confirmed now, lock it in",
    "#{n} is settled, mark it final", "confirm note {n}", "note {n} is signed off, make it final",
    "that {topic} note is agreed, make it official", "mark #{n} as confirmed",
    "can you finalise the {topic} note?", "could you lock the {topic} decision in",
    "I need you to commit #{n}", "would it be possible to mark all the notes final?",
    "all of them are agreed, set them in stone", "make everything in here final",
    "seal #{n}", "the {topic} is decided, commit it",
    "we signed off the {topic}, make it permanent",
    "finalise everything we've got", "commit the lot", "number {n} can be locked now",
    "the {topic} is a go, confirm that note", "turn #{n} from a draft into a final",
    "#{n} is no longer up for debate, lock it", "mark the {topic} one as done and final",
    "please commit the {topic} note", "those notes are all approved now, commit them",
    "lock down the {topic} note", "go ahead and make #{n} official",
    "everything above is confirmed, commit it all", "{name} approved the {topic}, lock it in",
    "set the {topic} note to confirmed", "ok the {topic} is locked, mark it so",
    "make note #{n} permanent please", "can we call #{n} final?",
)

CAPABILITY_ASKS = (
    "what can u actually do", "what are you good for?", "what sorts of stuff can you help with",
    "how can you help me exactly?", "what's your skill set", "remind me what you're for",
    "what can you do for me?", "are you able to remember things from one chat to the next?",
    "do you keep my notes between sessions?", "can you set alarms?", "can you browse the internet?",
    "what kinds of things can you help with in a project?", "what can you do inside this project?",
    "could you tell me what you're capable of", "are you able to forget stuff if I ask?",
    "do you still know what I told you after I log off?", "how does your memory work?",
    "is there a limit to how much you can remember?", "can you send emails?",
    "can you read files I upload?", "are you able to make reminders?",
    "do you carry things over from one project to another?", "what are your features?",
    "give me a quick tour of what you can do", "what are you capable of in here",
    "can you help me plan a project?", "I'm new here, what do you do?", "how do I use you?",
    "what sort of tasks are you good at", "can you share stuff with other people?",
    "what would you be useful for on a {project} project?",
    "do you have limits I should know about?",
    "can you export things?", "are you able to search the web?",
    "can you keep track of decisions in a project?",
    "do you save things automatically or do I ask?",
    "could you explain what you can help with", "what can I ask you to do?",
    "what else can you do besides chat?", "do you work across all my projects or just this one?",
    "can you take notes for me?", "are you able to keep a list for the {project}?",
)

REMINDER_ASKS = (
    "remind me to call the dentist {day}", "ping me {day} about the gas bill",
    "set an alarm for {time} tomorrow", "nudge me {day} to water the ferns",
    "set a reminder for my {appt} on {day}", "remind me about my {appt} {day} at {time}",
    "can you remind me to ring {name} on {day}?", "could you ping me at {time} to take my tablets",
    "I need you to remind me about the {appt} {day}",
    "would it be possible to remind me {day} morning to pay the rent?",
    "give me a shout {day} about the bins", "alert me {day} at {time} for my {appt}",
    "wake me at {time} on {day}", "remind me in {n} hours to check the oven",
    "don't let me miss my {appt} on {day}", "make sure I call my {relative} {day}",
    "schedule a reminder: {appt}, {day} at {time}", "reminder please — {appt} on {day} at {time}",
    "can you set me a reminder for {time}?", "text me a reminder {day} about the {appt}",
    "remind me every {day} to water the plants", "flag {day} for my {appt}",
    "tell me at {time} to leave for the {appt}", "can you remind me to book the {appt}?",
    "ping me on {day} to chase {name}", "set a timer for {n} minutes",
    "could you give me a heads-up before my {appt} {day}",
    "I need a reminder at {time} to pick up my {relative}",
    "would you remind me {day} that the car needs its MOT",
    "remind me on the {n}th to pay {name} back",
    "add a reminder for the {appt} on {day}", "alarm at {time} please",
    "remind me to put the bins out {day} night", "poke me {day} about the {appt}",
    "could you set a reminder to call the vet {day}?", "set a reminder for the {topic} on {day}",
    "I want a reminder at {time} {day} for my {appt}",
)

SEARCH_ASKS = (
    "look up the opening hours of the tip", "search the web for cheap flights to {city}",
    "google the weather in {city}", "find me reviews of the new ramen place online",
    "search for {subject}", "google {subject} for me", "look up {subject} online",
    "check online whether the {shop} in {city} is open {day}",
    "can you search the web for {subject}?",
    "could you look up train times to {city}", "I need you to google {subject}",
    "would it be possible to check online for {subject}?", "find {subject} on the internet",
    "search online for me: {subject}", "look {subject} up for me",
    "do a quick web search on {subject}",
    "check the internet for the forecast in {city} on {day}",
    "can you look online for cheap hotels in {city}?", "search the web for recipes with {food}",
    "check online if the {shop} is open late", "look up reviews of the {shop} near me",
    "browse the web for {subject}", "find out online when the {shop} closes",
    "could you google the opening times for the {shop} in {city}",
    "search {subject} and tell me what comes up", "run a search on {subject}",
    "look up the latest news on {subject}", "search for flights to {country} in {month}",
    "can you google the price of {thing}?", "look up the nearest {shop} to me",
    "please search the web for {subject}", "search up {subject} for me",
    "can u look up {subject} on the web", "check the web for {subject}",
    "google whether {food} is in season in {month}", "do an online search for {subject}",
    "could you check online what's on in {city} this {day}?",
)

SHARE_ASKS = (
    "share this project with my {relative}", "send these notes to {name}",
    "give {name} access to this one", "share this with {name}",
    "can you send the project to my {relative}?", "invite {name} to this project",
    "could you give {name} view access", "I need you to share the {project} notes with {name}",
    "would it be possible to share this project with my {relative}?", "let {name} see these notes",
    "add {name} as a collaborator", "send {name} a link to this project",
    "make this project visible to my {relative}", "forward the notes to {name}",
    "give my {relative} edit rights on this one", "can {name} get access to the {project} project?",
    "share the {project} project with the team", "pass these notes on to {name}",
    "open this project up to {name}", "email the notes over to {name}",
    "loop {name} in on this project", "can you share this with {name} from work?",
    "I want my {relative} to be able to see this", "grant {name} access please",
    "send a copy of this project to my {relative}", "let my {relative} edit these notes",
    "make the notes shareable with {name}", "give me a share link for this project",
    "could you share the {project} stuff with {name}?", "put {name} on this project",
    "share it read-only with {name}", "invite my {relative} to collaborate here",
    "{name} needs to see this, share it with them",
    "share everything in here with {name} and my {relative}",
)

EXPORT_ASKS = (
    "export the notes as a pdf", "download this project as a spreadsheet", "save it all as a pdf",
    "put the notes in a csv for me", "zip the whole project up so I can download it",
    "turn the notes into a word doc", "can you export this project as a {format}?",
    "download the {project} notes as a {format}", "save the notes to a {format}",
    "I need you to export everything to a {format}",
    "would it be possible to get the notes as a {format}?", "give me a {format} of this project",
    "turn the {project} notes into a {format}", "export to {format} please",
    "could you export the notes so I can print them", "make a {format} out of these notes",
    "get me a printable copy of the notes", "convert the project to a {format}",
    "bundle all the notes into a {format}", "back this project up as a {format}",
    "dump the notes into a {format} for me", "save everything here as a {format}",
    "export the {project} project", "I'd like a {format} export of the notes",
    "email me the notes as a {format}", "can I download the notes?",
    "put the notes in a {format} I can send round", "produce a {format} of the {project} project",
    "create a {format} with all the notes", "export this lot", "download everything in here",
    "I want the notes offline as a {format}", "generate a {format} of the project",
    "could you package the notes up as a {format}?", "export just the final notes to a {format}",
    "pull the notes out as a {format}", "let me download this project as a {format}",
)
# fmt: on
