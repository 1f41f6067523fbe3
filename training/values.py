"""Slot values of the generator's fact templates (training/templates.py), written for training.

Wide on purpose: many one-word, multi-word and uncommon values per slot, so a span's end is
learnt from the sentence rather than from a short list of words (training/vocab.py goes
further and puts words of the encoder's own vocabulary in the slots). They share no entry with
evals/perturb/ or pipeline/english/ (tests/reader/test_reader_words.py checks every entry).
"""

from __future__ import annotations

# The lists are kept packed: one entry a line would make this file many times longer.
# fmt: off

PEOPLE = (
    "Priya", "Tomasz", "Ife", "Marguerite", "Dev", "Sol", "Björn", "Keiko", "Rafa", "Ottilie",
    "Jin", "Amara", "Cas", "Wren", "Idris", "Lupe", "Nils", "Zara", "Beatrix", "Kofi", "Ingrid",
    "Mateo", "Saoirse", "Yusuf", "Hollis", "Anouk", "Bartholomew", "Chidi", "Dagny", "Esperanza",
    "Florin", "Gwen", "Hamish", "Ileana", "Jorge Luis", "Kwame", "Linnea", "Mirela", "Nkechi",
    "Oisín", "Pascale", "Quentin", "Rosalind", "Sven", "Tariq", "Ulla", "Valentina", "Wojtek",
    "Ximena", "Yaw", "Zuzana", "Anne-Marie", "Benedikt", "Cosima", "Dmitri", "Eun-ji", "Fenella",
    "Gideon", "Hiroshi", "Imogen", "Jules", "Kasimir", "Leocadia", "Mo", "Nayeli", "Orla",
    "Perpetua", "Radek", "Siobhan", "Thandiwe", "Umar", "Vesna", "Winifred", "Yolanda", "Zeb",
    "Mary Kate", "Little Joe", "Aunty Bisi", "Old Ted",
)

PET_NAMES = (
    "Pickles", "Biscuit", "Mr Whiskers", "Luna", "Captain", "Pudding", "Ziggy", "Noodle",
    "Sir Reginald", "Mochi", "Bramble", "Pixel", "Toffee", "Gizmo", "Dumpling", "Kevin",
    "Princess Fluff", "Socks", "Waffles", "Bean", "Marmalade", "Professor Hoot",
)

PET_KINDS = (
    "dog", "cat", "parrot", "rabbit", "gecko", "hamster", "tortoise", "ferret", "labrador",
    "whippet", "budgie", "goldfish", "guinea pig", "corn snake", "axolotl", "chinchilla",
    "cockatiel", "border collie", "sausage dog", "bearded dragon", "pony", "pair of rats",
)

RELATIVES = (
    "sister", "brother", "mum", "dad", "wife", "husband", "partner", "son", "daughter", "nan",
    "grandad", "aunt", "uncle", "cousin", "stepdad", "flatmate", "best friend", "stepmum",
    "girlfriend", "boyfriend", "fiancé", "fiancée", "twin", "godson", "goddaughter", "niece",
    "nephew", "mother-in-law", "father-in-law", "oldest", "youngest", "little sister",
    "big brother", "grandma", "granddaughter", "grandson", "ex", "landlord", "boss", "neighbour",
    "business partner", "housemate", "therapist", "mentor",
)

FOODS = (
    "peanuts", "shellfish", "sesame", "kiwi fruit", "buckwheat", "soy", "mushrooms", "coriander",
    "pineapple", "eggplant", "oat milk", "blue cheese", "anchovies", "okra", "tahini",
    "black licorice", "raw onion", "celery", "mustard seeds", "walnuts", "lentils", "cashews",
    "strawberries", "mango", "prawns", "squid", "chickpeas", "rye bread", "goat's cheese",
    "beetroot", "pork", "red meat", "chilli", "garlic", "cinnamon", "avocado", "aubergine",
    "brussels sprouts", "tofu", "durian", "pistachios", "sardines", "cottage cheese", "quinoa",
    "fennel", "olives", "marzipan", "pickled herring", "jalapeños", "egg yolks", "wheat",
    "sulphites", "tree nuts", "lupin", "citrus", "nightshades", "anything fried",
)

DRINKS = (
    "black coffee", "oolong", "flat whites", "sparkling water", "chai", "kombucha", "rooibos",
    "hot chocolate", "ginger beer", "mint tea", "espresso", "builder's tea", "matcha",
    "decaf", "cold brew", "yerba mate", "lemonade", "barley water",
)

CITIES = (
    "Leeds", "Porto", "Winnipeg", "Adelaide", "Graz", "Tucson", "Kraków", "Nairobi", "Halifax",
    "Osaka", "Bristol", "Valparaíso", "Tallinn", "Duluth", "Cork", "Bologna", "Pune", "Ghent",
    "Miami", "Lisbon", "Buenos Aires", "Salt Lake City", "Kuala Lumpur", "Reykjavík", "Hobart",
    "Dundee", "Marseille", "Gdańsk", "Boise", "Accra", "Chiang Mai", "Sheffield", "Utrecht",
    "Medellín", "Quebec City", "Aberystwyth", "Brno", "Trondheim", "Cusco", "Fresno", "Zagreb",
    "Swansea", "New Orleans", "Tbilisi", "Cluj", "Ljubljana", "Wollongong", "Thessaloniki",
    "Milton Keynes", "St Ives", "Des Moines", "Lagos", "Hanoi", "Kingston upon Hull",
)

AREAS = (
    "a village near Bath", "the old town", "a flat above a chip shop", "a houseboat",
    "a terraced house", "a tiny studio", "a bungalow by the sea", "the suburbs", "a farmhouse",
    "a tower block", "a cottage with no wifi", "student halls", "a converted church",
    "a caravan", "a cul-de-sac", "the top floor", "a basement flat", "a narrowboat",
)

COUNTRIES = (
    "Portugal", "Ghana", "Vietnam", "Chile", "Norway", "Morocco", "New Zealand", "Iceland",
    "Peru", "Sri Lanka", "Estonia", "Jordan", "Japan", "Mexico", "Georgia", "the Philippines",
    "Scotland", "Uruguay", "Kenya", "Croatia", "Mongolia", "South Korea", "the Azores",
)

LANGUAGES = (
    "Portuguese", "Tagalog", "Welsh", "Polish", "Korean", "Swahili", "Dutch", "Farsi", "Yoruba",
    "Icelandic", "Basque", "Gujarati", "Hungarian", "Catalan", "Amharic", "Ukrainian", "Malay",
    "Tamil", "Irish", "Cantonese", "Romanian", "Sign language", "Hebrew", "Finnish", "Bengali",
)

PRONOUN_SETS = ("she/her", "he/him", "they/them", "she/they", "he/they", "xe/xem", "any pronouns")

JOBS = (
    "a paramedic", "a sound engineer", "a primary school teacher", "a welder", "an actuary",
    "a night-shift nurse", "a carpenter", "a data analyst", "a florist", "a bus driver",
    "a pharmacist", "a tattoo artist", "a translator", "a vet tech", "a locksmith", "a midwife",
    "a dental hygienist", "a software tester", "a barista", "a court stenographer", "a roofer",
    "a museum curator", "a physiotherapist", "a HGV driver", "a stay-at-home dad", "a sommelier",
    "a lighting technician", "an air traffic controller", "a social worker", "a glassblower",
    "a postie", "a chef", "an electrician", "a librarian", "a quantity surveyor", "a tour guide",
    "a hospice chaplain", "a forklift operator", "a wedding photographer", "a lab technician",
    "a crossing guard", "a zookeeper", "a UX researcher", "an estate agent", "a dog groomer",
)

EMPLOYERS = (
    "Siemens", "the council", "a bakery", "the NHS", "a small law firm", "Tesco", "a start-up",
    "the library", "a garden centre", "an oil rig", "the post office", "a hedge fund",
    "a call centre", "the university", "a vineyard", "my uncle's garage", "a charity shop",
    "an animal shelter", "a shipping company", "a school in town", "the fire brigade",
    "a brewery", "IKEA", "the railway", "a care home", "a recording studio",
)

SUBJECTS = (
    "marine biology", "accounting", "medieval history", "nursing", "civil engineering", "law",
    "graphic design", "philosophy", "physics", "social work", "Japanese", "architecture",
    "computer science", "midwifery", "veterinary medicine", "music production", "economics",
    "forensic science", "horticulture", "theology", "dentistry", "criminology", "statistics",
)

STUDY_PLACES = (
    "night school", "the Open University", "a community college", "art school", "uni",
    "sixth form", "a coding bootcamp", "an online course", "a conservatoire", "trade school",
)

CONDITIONS = (
    "a bad knee", "eczema", "migraines", "a dodgy shoulder", "tinnitus", "type 1 diabetes",
    "a bad back", "hay fever", "low iron", "ADHD", "sleep apnoea", "psoriasis",
    "a heart murmur", "arthritis in my hands", "IBS", "epilepsy", "long covid", "vertigo",
    "a pacemaker", "high blood pressure", "plantar fasciitis", "coeliac disease", "dyslexia",
    "a titanium hip", "chronic fatigue", "glaucoma", "a stammer", "restless legs", "gout",
)

MEDS = (
    "metformin", "sertraline", "an inhaler", "levothyroxine", "iron tablets", "insulin",
    "blood thinners", "beta blockers", "antihistamines", "vitamin D", "melatonin",
    "the pill", "ibuprofen", "statins", "lithium", "omeprazole", "an EpiPen", "eye drops",
)

DIETS = (
    "flexitarian", "paleo", "fruitarian", "meat-free", "plant-only", "dairy-free", "low-carb",
    "keto", "low FODMAP", "plant-based", "sugar-free", "teetotal", "on a low-salt diet",
)

HOBBIES = (
    "bouldering", "the cello", "pottery", "birdwatching", "salsa dancing", "chess",
    "open-water swimming", "knitting", "trail running", "woodcarving", "karaoke", "beekeeping",
    "fencing", "crochet", "geocaching", "stand-up paddleboarding", "calligraphy",
    "model railways", "roller derby", "bonsai", "amateur astronomy", "cross-stitch", "judo",
    "metal detecting", "film photography", "board games", "sea kayaking", "tap dancing",
    "lock picking", "parkrun", "origami", "sourdough baking", "ham radio", "archery",
    "life drawing", "ultimate frisbee", "embroidery", "fly fishing", "skateboarding",
)

INSTRUMENTS = (
    "the ukulele", "bass guitar", "the bagpipes", "the oboe", "drums", "the harp",
    "the accordion", "the trumpet", "piano", "the tin whistle", "the theremin", "violin",
)

VEHICLES = (
    "a red Fiat", "a battered Volvo estate", "an old Land Rover", "a Nissan Leaf",
    "a camper van", "a Vespa", "a Tesla", "a 2009 Corolla", "a motorbike", "a tandem",
    "a cargo bike", "an e-scooter", "a mobility scooter", "a Mini", "a pickup truck",
    "a vintage Beetle", "a hybrid", "a road bike", "a fixie", "a canal boat",
)

THINGS = (
    "a piano", "a 3D printer", "a record player", "a sewing machine", "an allotment",
    "a hot tub", "a telescope", "a drone", "a season ticket", "a caravan", "a kayak",
    "an air fryer", "a greenhouse", "a loom", "a pizza oven", "two guitars", "a smartwatch",
    "a very old laptop", "a film camera", "a chest freezer", "a sauna",
)

FEARS = (
    "wasps", "heights", "deep water", "clowns", "spiders", "the dentist", "flying", "syringes",
    "crowds", "lifts", "moths", "thunderstorms", "driving on motorways", "public speaking",
    "the dark", "pigeons", "escalators", "tunnels", "hospitals", "geese", "balloons",
)

GOALS = (
    "run a marathon", "learn to drive", "write a novel", "buy a house", "visit every continent",
    "get my PhD", "pay off my loans", "learn to swim", "quit smoking", "start a podcast",
    "open a café", "climb Kilimanjaro", "retire at fifty", "read a hundred books this year",
    "get my black belt", "walk the Camino", "sail round Ireland", "become a nurse",
)

BELIEFS = (
    "a practising Buddhist", "a Quaker", "Catholic", "Muslim", "Jewish", "an atheist",
    "Hindu", "a Sikh", "agnostic", "a Methodist", "pagan", "Orthodox", "Jain",
)

GENRES = (
    "jazz", "sea shanties", "k-pop", "death metal", "film scores", "bluegrass", "grime",
    "opera", "Afrobeats", "ambient music", "eighties synth-pop", "reggae", "Bollywood songs",
    "true crime podcasts", "romance novels", "sci-fi", "Nordic noir", "cookery shows", "anime",
    "nature documentaries", "westerns", "poetry",
)

TEAMS = (
    "Leeds United", "the Red Sox", "Celtic", "the Packers", "Benfica", "the All Blacks",
    "Wrexham", "the Raptors", "Boca Juniors", "the Steelers", "Sunderland", "Munster",
)

COLOURS = (
    "green", "mustard yellow", "navy", "teal", "burnt orange", "lilac", "charcoal grey",
    "forest green", "maroon", "sky blue", "coral", "black",
)

SEASONS = ("winter", "autumn", "spring", "summer", "the rainy season", "late summer")

ROOMS = (
    "the spare room", "the attic", "the shed", "the kitchen table", "a desk in the hall",
    "the garage", "the conservatory", "the box room", "the cellar",
)

SIZES = (
    "a size 12", "a size 8", "a 10", "an 11", "a 42", "a 38", "a medium", "an XL", "a small",
    "a 6 and a half", "a 46 long", "a size 14",
)

HEIGHTS = ("five foot two", "six foot four", "1.58", "180 cm", "5'9", "just under six foot")

AGES = (
    "34", "41", "27", "58", "63", "19", "45", "72", "thirty", "sixty-one", "88", "23", "50",
    "nearly forty", "36", "90",
)

KID_AGES = ("4", "6", "7", "9", "11", "13", "15", "two", "eight", "three months", "17", "5")

DATES = (
    "3rd", "9th", "12th", "17th", "21st", "28th", "30th", "1st", "2nd", "14th", "19th", "25th",
    "31st", "8th",
)

MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)

WEEKDAYS_OWN = (
    "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays",
    "weekends", "weekday mornings", "alternate Fridays", "Tuesday and Thursday evenings",
)

CLOCK_TIMES = (
    "6am", "7:15", "half eight", "noon", "5.30", "9pm", "quarter past six", "10:45", "4am",
    "twenty to seven", "11 at night", "half past five", "13:00", "dawn", "midnight",
)

DURATIONS = (
    "two years", "six months", "a decade", "since 2015", "three weeks", "most of my life",
    "eighteen months", "since uni", "about five years", "since I was a kid",
)

NUMBERS = ("two", "three", "four", "5", "6", "seven", "twelve", "1", "9", "ten", "twenty")
