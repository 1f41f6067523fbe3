"""Personal fact templates of the generator: the person's words, the companion's, the slot's
values and the profile field.

{v} is the slot a correction replaces; {rel}, {pet}, {name}, {petname}, {day}, {month} and
{city} are filled from training/values.py and stay as they are when corrected. Written for
training; the words test (tests/reader/test_reader_words.py) checks every entry.
"""

from __future__ import annotations

from training import values as v

Template = tuple[str, str, tuple[str, ...], str]

NONE = ("",)  # a template without a correctable slot

# fmt: off
TEMPLATES: tuple[Template, ...] = (
    # names, pronouns, home city, language (profile fields)
    ("my name's {v}", "your name is {v}", v.PEOPLE, "preferred_name"),
    ("call me {v}", "you'd like to be called {v}", v.PEOPLE, "preferred_name"),
    ("I go by {v} these days", "you go by {v}", v.PEOPLE, "preferred_name"),
    ("everyone calls me {v}", "people call you {v}", v.PEOPLE, "preferred_name"),
    ("I'd like you to call me {v}", "you'd like to be called {v}", v.PEOPLE, "preferred_name"),
    ("my pronouns are {v}", "your pronouns are {v}", v.PRONOUN_SETS, "pronouns"),
    ("I use {v}", "you use {v} pronouns", v.PRONOUN_SETS, "pronouns"),
    ("I'm {v} by the way, pronoun-wise", "your pronouns are {v}", v.PRONOUN_SETS, "pronouns"),
    ("I live in {v}", "you live in {v}", v.CITIES, "city"),
    ("I just moved to {v}", "you moved to {v}", v.CITIES, "city"),
    ("I'm based in {v} now", "you're based in {v}", v.CITIES, "city"),
    ("home is {v} these days", "home is {v}", v.CITIES, "city"),
    ("we relocated to {v} in {month}", "you relocated to {v}", v.CITIES, "city"),
    ("I'm from {v} originally but I live in {city}", "you live in {city}", v.CITIES, "none"),
    ("I'd rather chat in {v}", "you'd like to chat in {v}", v.LANGUAGES, "language"),
    ("my first language is {v}", "your first language is {v}", v.LANGUAGES, "language"),
    ("please talk to me in {v} from now on", "you want replies in {v}", v.LANGUAGES, "language"),
    ("answer me in {v} if you can", "you want answers in {v}", v.LANGUAGES, "language"),
    # languages spoken, learnt
    ("I'm learning {v}", "you're learning {v}", v.LANGUAGES, "none"),
    ("I speak a bit of {v}", "you speak some {v}", v.LANGUAGES, "none"),
    ("my {rel} only speaks {v}", "your {rel} speaks {v}", v.LANGUAGES, "none"),
    ("I grew up speaking {v} at home", "you grew up speaking {v}", v.LANGUAGES, "none"),
    # family, partners, friends
    ("my {rel} is called {v}", "your {rel} is called {v}", v.PEOPLE, "none"),
    ("my {rel}'s name is {v}", "your {rel}'s name is {v}", v.PEOPLE, "none"),
    ("{v} is my {rel}", "{v} is your {rel}", v.PEOPLE, "none"),
    ("I'm married to {v}", "you're married to {v}", v.PEOPLE, "none"),
    ("my partner {v} and I have been together {v2}", "you and {v} have been together",
     v.PEOPLE, "none"),
    ("I'm seeing someone called {v}", "you're seeing {v}", v.PEOPLE, "none"),
    ("my best mate is {v}", "your best mate is {v}", v.PEOPLE, "none"),
    ("I've got {v} kids", "you have {v} kids", v.NUMBERS, "none"),
    ("I have {v} grandchildren", "you have {v} grandchildren", v.NUMBERS, "none"),
    ("my {rel} is {v}", "your {rel} is {v}", v.KID_AGES, "none"),
    ("my {rel} just turned {v}", "your {rel} is {v}", v.KID_AGES, "none"),
    ("my {rel} lives in {v}", "your {rel} lives in {v}", v.CITIES, "none"),
    ("my {rel} {name} works as {v}", "your {rel} {name} works as {v}", v.JOBS, "none"),
    ("my {rel} is vegetarian", "your {rel} is vegetarian", NONE, "none"),
    ("my {rel} passed away in {v}", "your {rel} passed away in {v}", v.MONTHS, "none"),
    ("I'm an only child", "you're an only child", NONE, "none"),
    ("I'm one of {v} siblings", "you're one of {v} siblings", v.NUMBERS, "none"),
    ("I'm divorced", "you're divorced", NONE, "none"),
    ("my {rel} and I don't really talk", "you and your {rel} don't talk", NONE, "none"),
    ("my {rel} is expecting in {v}", "your {rel} is expecting in {v}", v.MONTHS, "none"),
    # work and study
    ("I work as {v}", "you work as {v}", v.JOBS, "none"),
    ("I'm {v} by trade", "you're {v}", v.JOBS, "none"),
    ("I'm {v}", "you're {v}", v.JOBS, "none"),
    ("I retrained as {v} last year", "you retrained as {v}", v.JOBS, "none"),
    ("I used to be {v}", "you used to be {v}", v.JOBS, "none"),
    ("I work at {v}", "you work at {v}", v.EMPLOYERS, "none"),
    ("I'm employed by {v}", "you're employed by {v}", v.EMPLOYERS, "none"),
    ("I've worked for {v} for {v2}", "you work for {v}", v.EMPLOYERS, "none"),
    ("I start a new job at {v} on monday", "you're starting at {v}", v.EMPLOYERS, "none"),
    ("my manager is {v}", "your manager is {v}", v.PEOPLE, "none"),
    ("I work nights", "you work nights", NONE, "none"),
    ("I work from home on {v}", "you work from home on {v}", v.WEEKDAYS_OWN, "none"),
    ("I'm self-employed", "you're self-employed", NONE, "none"),
    ("I'm retired", "you're retired", NONE, "none"),
    ("I study {v}", "you study {v}", v.SUBJECTS, "none"),
    ("I'm doing a degree in {v}", "you're studying {v}", v.SUBJECTS, "none"),
    ("I'm in my final year of {v}", "you're in your final year of {v}", v.SUBJECTS, "none"),
    ("I go to {v} twice a week", "you go to {v}", v.STUDY_PLACES, "none"),
    ("I dropped out of {v}", "you dropped out of {v}", v.STUDY_PLACES, "none"),
    ("I have a masters in {v}", "you have a masters in {v}", v.SUBJECTS, "none"),
    # health and medication
    ("I've got {v}", "you have {v}", v.CONDITIONS, "none"),
    ("I was diagnosed with {v} in {month}", "you have {v}", v.CONDITIONS, "none"),
    ("I live with {v}", "you live with {v}", v.CONDITIONS, "none"),
    ("I suffer from {v}", "you suffer from {v}", v.CONDITIONS, "none"),
    ("I take {v} every morning", "you take {v} every morning", v.MEDS, "none"),
    ("I'm on {v}", "you're on {v}", v.MEDS, "none"),
    ("I have to carry {v} everywhere", "you carry {v}", v.MEDS, "none"),
    ("I'm allergic to {v}", "you're allergic to {v}", v.FOODS, "none"),
    ("I'm allergic to {v}", "you're allergic to {v}", v.MEDS, "none"),
    ("I'm intolerant to {v}", "you're intolerant to {v}", v.FOODS, "none"),
    ("I'm pregnant, due in {v}", "you're due in {v}", v.MONTHS, "none"),
    ("I'm deaf in one ear", "you're deaf in one ear", NONE, "none"),
    ("I'm colour blind", "you're colour blind", NONE, "none"),
    ("I had surgery on my {v} last year", "you had surgery on your {v}", (
        "knee", "hip", "spine", "wrist", "shoulder", "eyes", "heart", "ankle"), "none"),
    ("I've been sober {v}", "you've been sober {v}", v.DURATIONS, "none"),
    ("I wear glasses", "you wear glasses", NONE, "none"),
    # diet and food
    ("I can't eat {v}", "you can't eat {v}", v.FOODS, "none"),
    ("I don't touch {v}", "you avoid {v}", v.FOODS, "none"),
    ("I'm {v}", "you're {v}", v.DIETS, "none"),
    ("I've been {v} for {v2}", "you're {v}", v.DIETS, "none"),
    ("I don't eat {v}", "you don't eat {v}", v.FOODS, "none"),
    ("I'm obsessed with {v}", "you're obsessed with {v}", v.FOODS, "none"),
    ("my favourite food is {v}", "your favourite food is {v}", v.FOODS, "none"),
    ("I drink {v} every day", "you drink {v} daily", v.DRINKS, "none"),
    ("I only drink {v}", "you only drink {v}", v.DRINKS, "none"),
    ("I've given up {v}", "you've given up {v}", v.DRINKS, "none"),
    ("{v} makes me ill", "{v} makes you ill", v.FOODS, "none"),
    ("I hate the taste of {v}", "you hate the taste of {v}", v.FOODS, "none"),
    ("my {rel} can't have {v}", "your {rel} can't have {v}", v.FOODS, "none"),
    # home and neighbourhood
    ("I live in {v}", "you live in {v}", v.AREAS, "none"),
    ("we rent {v} in {city}", "you rent {v} in {city}", v.AREAS, "none"),
    ("I share a flat with {v}", "you share a flat with {v}", v.PEOPLE, "none"),
    ("I live with my {rel}", "you live with your {rel}", NONE, "none"),
    ("I live alone", "you live alone", NONE, "none"),
    ("I work from {v}", "you work from {v}", v.ROOMS, "none"),
    ("our house has no {v}", "your house has no {v}", (
        "stairs", "garden", "bath", "central heating", "oven", "parking"), "none"),
    ("my local is {v}", "your local is {v}", (
        "the Red Lion", "a tiny wine bar", "the Crown and Anchor", "a cider house"), "none"),
    ("I've lived here {v}", "you've lived there {v}", v.DURATIONS, "none"),
    # pets
    ("I have a {pet} named {v}", "you have a {pet} named {v}", v.PET_NAMES, "none"),
    ("my {pet} is called {v}", "your {pet} is called {v}", v.PET_NAMES, "none"),
    ("we've got a {v}", "you have a {v}", v.PET_KINDS, "none"),
    ("I adopted a {v} in {month}", "you adopted a {v}", v.PET_KINDS, "none"),
    ("my {pet} {petname} is {v}", "your {pet} {petname} is {v}", v.KID_AGES, "none"),
    ("I foster {v}s for a shelter", "you foster {v}s", v.PET_KINDS, "none"),
    ("I'm allergic to {v}s", "you're allergic to {v}s", v.PET_KINDS, "none"),
    # routines and schedules
    ("I swim on {v}", "you swim on {v}", v.WEEKDAYS_OWN, "none"),
    ("I do the school run on {v}", "you do the school run on {v}", v.WEEKDAYS_OWN, "none"),
    ("I get up at {v}", "you get up at {v}", v.CLOCK_TIMES, "none"),
    ("my shift starts at {v}", "your shift starts at {v}", v.CLOCK_TIMES, "none"),
    ("I go to bed around {v}", "you go to bed around {v}", v.CLOCK_TIMES, "none"),
    ("I finish work at {v}", "you finish work at {v}", v.CLOCK_TIMES, "none"),
    ("I visit my {rel} on {v}", "you visit your {rel} on {v}", v.WEEKDAYS_OWN, "none"),
    ("I have band practice on {v}", "you have band practice on {v}", v.WEEKDAYS_OWN, "none"),
    ("I meditate every morning at {v}", "you meditate at {v}", v.CLOCK_TIMES, "none"),
    ("I walk the {pet} at {v}", "you walk the {pet} at {v}", v.CLOCK_TIMES, "none"),
    ("I go to church on {v}", "you go to church on {v}", v.WEEKDAYS_OWN, "none"),
    ("I'm never free on {v}", "you're never free on {v}", v.WEEKDAYS_OWN, "none"),
    ("I do my food shop on {v}", "you shop on {v}", v.WEEKDAYS_OWN, "none"),
    ("I commute by {v}", "you commute by {v}", (
        "train", "bike", "ferry", "bus", "tram", "car", "foot", "canoe"), "none"),
    # preferences and dislikes
    ("I prefer {v} meetings", "you prefer {v} meetings", (
        "morning", "short", "walking", "camera-off", "in-person", "afternoon"), "none"),
    ("my favourite colour is {v}", "your favourite colour is {v}", v.COLOURS, "none"),
    ("I listen to a lot of {v}", "you listen to {v}", v.GENRES, "none"),
    ("I can't stand {v}", "you dislike {v}", v.GENRES, "none"),
    ("I'm a big fan of {v}", "you're a fan of {v}", v.GENRES, "none"),
    ("I support {v}", "you support {v}", v.TEAMS, "none"),
    ("my favourite season is {v}", "your favourite season is {v}", v.SEASONS, "none"),
    ("I prefer texts to calls", "you prefer texts to calls", NONE, "none"),
    ("I hate being called {v}", "you hate being called {v}", (
        "mate", "sweetie", "buddy", "young lady", "boss", "chief"), "none"),
    ("I really dislike {v}", "you dislike {v}", v.FEARS, "none"),
    ("I'd pick {v} over anything", "you love {v}", v.DRINKS, "none"),
    ("I'm not into {v} at all", "you're not into {v}", v.HOBBIES, "none"),
    # possessions
    ("I drive {v}", "you drive {v}", v.VEHICLES, "none"),
    ("I ride {v} to work", "you ride {v} to work", v.VEHICLES, "none"),
    ("I just bought {v}", "you bought {v}", v.VEHICLES, "none"),
    ("I own {v}", "you own {v}", v.THINGS, "none"),
    ("I've got {v} in {room}", "you have {v}", v.THINGS, "none"),
    ("I don't own a car", "you don't own a car", NONE, "none"),
    ("my phone is {v}", "your phone is {v}", (
        "a cracked iPhone", "an old Nokia", "a Pixel", "a flip phone", "a hand-me-down Samsung"),
     "none"),
    # travel
    ("I'm going to {v} in {month}", "you're going to {v}", v.COUNTRIES, "none"),
    ("I've never been to {v}", "you've never been to {v}", v.COUNTRIES, "none"),
    ("I spent a year in {v}", "you spent a year in {v}", v.COUNTRIES, "none"),
    ("I fly to {v} every {month}", "you fly to {v}", v.CITIES, "none"),
    ("my dream trip is {v}", "your dream trip is {v}", v.COUNTRIES, "none"),
    ("I'm from {v}", "you're from {v}", v.COUNTRIES, "none"),
    ("my family is from {v}", "your family is from {v}", v.COUNTRIES, "none"),
    # birthdays and dates
    ("my birthday is the {v} of {month}", "your birthday is the {v} of {month}", v.DATES, "none"),
    ("my {rel}'s birthday is the {v}", "your {rel}'s birthday is the {v}", v.DATES, "none"),
    ("I was born in {v}", "you were born in {v}", v.MONTHS, "none"),
    ("my anniversary is in {v}", "your anniversary is in {v}", v.MONTHS, "none"),
    ("we got married on the {v}", "you married on the {v}", v.DATES, "none"),
    ("my exams start on the {v}", "your exams start on the {v}", v.DATES, "none"),
    ("the wedding is in {v}", "the wedding is in {v}", v.MONTHS, "none"),
    # hobbies
    ("I'm really into {v}", "you're into {v}", v.HOBBIES, "none"),
    ("I've been doing {v} for years", "you do {v}", v.HOBBIES, "none"),
    ("I took up {v} in lockdown", "you took up {v}", v.HOBBIES, "none"),
    ("I play {v}", "you play {v}", v.INSTRUMENTS, "none"),
    ("I'm teaching myself {v}", "you're learning {v}", v.INSTRUMENTS, "none"),
    ("I do {v} on {day}", "you do {v} on {day}", v.HOBBIES, "none"),
    ("I run a {v} club", "you run a {v} club", v.HOBBIES, "none"),
    ("I collect {v}", "you collect {v}", (
        "stamps", "vinyl", "old maps", "enamel pins", "teapots", "fossils", "comics", "cacti"),
     "none"),
    # beliefs, goals, fears
    ("I'm {v}", "you're {v}", v.BELIEFS, "none"),
    ("I was raised {v}", "you were raised {v}", v.BELIEFS, "none"),
    ("I want to {v} one day", "you want to {v}", v.GOALS, "none"),
    ("my goal this year is to {v}", "your goal is to {v}", v.GOALS, "none"),
    ("I'm saving up to {v}", "you're saving to {v}", v.GOALS, "none"),
    ("I'm scared of {v}", "you're scared of {v}", v.FEARS, "none"),
    ("I'm terrified of {v}", "you're terrified of {v}", v.FEARS, "none"),
    ("I have a phobia of {v}", "you have a phobia of {v}", v.FEARS, "none"),
    ("{v} freak me out", "{v} scare you", v.FEARS, "none"),
    ("I don't believe in {v}", "you don't believe in {v}", (
        "horoscopes", "ghosts", "diets", "tipping", "luck"), "none"),
    # numbers: sizes, ages, heights
    ("I'm {v} years old", "you're {v}", v.AGES, "none"),
    ("I turned {v} last month", "you're {v}", v.AGES, "none"),
    ("I'll be {v} in {month}", "you'll be {v} in {month}", v.AGES, "none"),
    ("I'm a {v} in shoes", "your shoe size is {v}", v.SIZES, "none"),
    ("I take {v} in jeans", "you take {v} in jeans", v.SIZES, "none"),
    ("I'm {v} tall", "you're {v} tall", v.HEIGHTS, "none"),
    ("my ring size is {v}", "your ring size is {v}", (
        "M and a half", "P and a half", "7", "size K", "9"), "none"),
    ("I have {v} tattoos", "you have {v} tattoos", v.NUMBERS, "none"),
)
# fmt: on

# A second value in a few templates (a duration): filled, never corrected.
SECOND_SLOT = v.DURATIONS
