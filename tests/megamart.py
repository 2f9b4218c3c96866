# ruff: noqa: E501  (template sentences read best unbroken; the output is data)
"""Generate the bundled MegaMart corpus from templates with a fixed seed (rule EVAL-23).

``python -m tests.megamart [OUT]`` rewrites ``OUT`` (default: the bundled
folder beside this file): ``pages/*.md`` and ``queries.jsonl``. The same seed gives the same
bytes. Every fact a question asks about is written through :class:`Page.fact`, which records
where it lands, so a question's gold lists *every* place that answers it (EVAL-10) and an
identifier question's answer contains the identifier it names. Near-duplicate pages (sibling
models of one product family, branches of one chain, regional variants of one policy) share
their wording and differ in the facts: they are the distractors.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SEED = 20260101

# --- sentence pools: generic text per section (slots: {name} {brand} {cat} {city}) ---------

POOLS: dict[str, tuple[str, ...]] = {
    "overview": (
        "The {name} is part of the {brand} range that MegaMart has stocked since it launched, "
        "and it remains one of the most requested {cat} models in our stores.",
        "Customers who bought the {name} most often mention how quickly they could set it up "
        "and how little space it takes on a counter or a shelf.",
        "This guide collects what our product specialists are asked most about the {name}, "
        "from the first day at home to the end of its life.",
        "If you are comparing the {name} with other {cat} models, the specification table "
        "below lists the figures that manufacturers publish in the same units.",
        "Every unit sold by MegaMart is a genuine {brand} product supplied through the "
        "manufacturer's own distribution network, never through grey imports.",
        "Stock levels change during the day, so the availability shown online is refreshed "
        "every fifteen minutes and may differ slightly from the shelf in your local store.",
        "Our reviewers tested the {name} for two weeks in an ordinary household before we "
        "wrote this page, and we update it when the manufacturer changes the design.",
        "Please read the safety section before first use, even if you have owned a {cat} "
        "from another brand before, because controls and warnings differ between models.",
    ),
    "setup": (
        "Unpack the {name} on a flat, dry surface and keep the packaging until you are sure "
        "you will keep the product, since a return is easier in the original box.",
        "Remove every protective film, tie and transport insert before switching on; some are "
        "clear and easy to miss on glossy surfaces.",
        "Place the appliance at least ten centimetres from walls and curtains so that air can "
        "circulate around the vents during use.",
        "Plug the {name} directly into a wall socket rather than an extension lead, which can "
        "overheat when a {cat} draws its full power for several minutes.",
        "The first time you switch on, a faint smell is normal for a few minutes while "
        "manufacturing residues burn off; open a window if it bothers you.",
        "Register the product with {brand} within thirty days to receive firmware notices and "
        "recall alerts by email, which MegaMart cannot send on the maker's behalf.",
        "If the display shows a language you do not read, hold the settings button for five "
        "seconds to open the language menu and scroll with the arrow keys.",
        "Keep the quick-start card inside the cupboard door or another place where you will "
        "find it again; it lists the reset sequence and the support number.",
    ),
    "care": (
        "Unplug the {name} and let it cool completely before cleaning any part of it.",
        "Wipe the outer surfaces with a soft, damp cloth; abrasive pads and solvent cleaners "
        "can scratch the finish and are not covered by the warranty.",
        "Removable parts marked with the dishwasher symbol may go on the top rack at up to "
        "fifty degrees; everything else should be washed by hand.",
        "In hard-water areas limescale builds up faster, so descale more often than the "
        "schedule printed in the manual suggests.",
        "Check the power cable now and then for kinks or damage, and stop using the appliance "
        "at once if the insulation is cracked.",
        "Store the {name} in a dry place; condensation inside a cold garage or shed can damage "
        "the electronics over a winter.",
        "Replacement filters and seals are listed in the accessories table, and genuine parts "
        "keep the warranty valid where third-party parts may not.",
        "Do not immerse the base, the cable or the plug in water or any other liquid.",
    ),
    "safety": (
        "Children should be supervised to ensure that they do not play with the appliance.",
        "Never leave the {name} running unattended for long periods, and switch it off at the "
        "socket when you go out.",
        "Use the appliance only for the purpose described in this guide; misuse may cause "
        "injury and is not covered by any warranty.",
        "If the supply cord is damaged it must be replaced by the manufacturer, its service "
        "agent or a similarly qualified person in order to avoid a hazard.",
        "Surfaces marked with the hot-surface symbol stay hot for several minutes after use.",
        "Keep the appliance and its cord out of reach of children under eight years of age.",
        "Do not operate the {name} with wet hands or while standing on a damp floor.",
        "Report any incident involving smoke, sparks or a burning smell to MegaMart customer "
        "care and to the manufacturer, even if no one was hurt.",
    ),
    "returns": (
        "You can return most products bought from MegaMart in store or by post, and the "
        "refund goes back to the card or account you paid with.",
        "Keep your receipt or order confirmation, since we use it to find the purchase date "
        "and the price you paid, including any promotion.",
        "Items returned without all their accessories may receive a partial refund after "
        "inspection by our returns team.",
        "Refunds to cards usually appear within three to five working days after we receive "
        "the item, depending on your bank.",
        "Gift receipts allow the recipient to exchange the item or receive store credit, but "
        "not a refund to the original payment card.",
        "Faulty items are always handled under your statutory rights, whatever the length of "
        "the return window for change-of-mind returns.",
        "Collection from your home can be booked for large items; the driver will check the "
        "item and give you a collection receipt.",
        "Returns posted with a prepaid MegaMart label are tracked, so there is no need to "
        "send us proof of postage.",
    ),
    "contact": (
        "Our customer care team answers calls every day from eight in the morning until eight "
        "in the evening, except on public holidays.",
        "Live chat is available in the MegaMart app and on the website, and a transcript is "
        "sent to your email address when the chat ends.",
        "Have your order number ready when you contact us, since it lets the agent see the "
        "delivery history and any earlier conversations.",
        "We aim to reply to emails within one working day, and to complaints within five.",
        "For accessibility support, ask for a call back and an agent will phone you at a time "
        "that suits you.",
        "Store staff can also check orders, arrange returns and book repairs, so you do not "
        "need to call if you are visiting anyway.",
        "Please do not send card numbers by email or chat; our agents will never ask for your "
        "full card number or your password.",
        "Feedback on this page helps us improve it, so use the thumbs at the bottom to tell us "
        "whether it answered your question.",
    ),
    "store": (
        "The {city} branch is one of MegaMart's larger stores, with a full electrical "
        "department, a garden centre in season and a customer service desk near the exit.",
        "Trolleys need a one-euro coin or a MegaMart token, which you can ask for at the "
        "customer service desk.",
        "Staff on the shop floor wear blue lanyards and can check stock in other stores from "
        "their handheld devices.",
        "The store takes part in the national food-donation scheme, and surplus fresh food is "
        "collected by local charities every evening.",
        "Seasonal opening hours during holiday weeks are announced on this page and at the "
        "entrances at least two weeks in advance.",
        "Baby changing facilities and toilets are on the ground floor next to the café.",
        "Free drinking water refill points are by the café and at the customer service desk.",
        "Card, contactless and mobile payments are accepted at every till; cash is accepted "
        "at staffed tills only.",
        "Our self-checkout area has a member of staff on hand at all times to help with "
        "age-restricted items and unexpected item alerts.",
        "Electrical items can be collected from the click and collect point on the same day "
        "if you order before two in the afternoon.",
    ),
    "policy": (
        "This policy explains how change-of-mind returns work for {cat} bought from MegaMart; "
        "it does not limit your statutory rights for faulty goods.",
        "The return window starts on the day the order is delivered or collected, not on the "
        "day you placed the order.",
        "Items must be returned with their original packaging, manuals and accessories "
        "wherever possible.",
        "Products that have been personalised, engraved or cut to size cannot be returned for "
        "a change of mind.",
        "Refunds are issued in the currency and to the payment method used for the purchase.",
        "If you bought the item with a promotional bundle, returning one part of the bundle "
        "may change the price of the items you keep.",
        "Business customers should read the business accounts page, because different terms "
        "apply to purchases on account.",
        "We may refuse returns that show signs of use beyond what is needed to inspect the "
        "item, or that are not in a resalable condition.",
        "Marketplace items sold by other sellers follow the seller's own returns policy, which "
        "is shown on the product page before you buy.",
        "This page is reviewed every quarter, and the date of the last review appears at the "
        "bottom of the page.",
    ),
    "delivery": (
        "Orders are packed in our regional fulfilment centre and handed to the carrier on the "
        "same evening when they are placed before the cut-off.",
        "You will receive a text message with a two-hour delivery window on the morning of "
        "delivery, and a link to follow the van.",
        "If nobody is at home, the driver will try a neighbour or a safe place you named at "
        "checkout, and leave a card saying where the parcel is.",
        "Large items are delivered by a two-person team to the room of your choice on the "
        "ground floor or, where there is a lift, on an upper floor.",
        "Deliveries are not made on public holidays; orders placed before a holiday are "
        "delivered on the next working day.",
        "Some remote addresses are served by partner carriers, who may take one or two days "
        "longer than the times shown below.",
        "You can change the delivery date up to eight in the evening on the day before "
        "delivery in your account or in the MegaMart app.",
        "Deliveries that fail twice are returned to the fulfilment centre and refunded in full "
        "once they arrive there.",
    ),
    "faq": (
        "**Can I reserve an item and pay in store?** Yes. Choose reserve and collect at checkout, "
        "and the item is held at the customer service desk for forty-eight hours; you pay when you "
        "collect it, by card or in cash.",
        "**Do you price match?** We match the price of a major UK or EU retailer for an identical "
        "item in stock, including delivery costs, when you show us the offer before you pay; "
        "marketplace sellers and clearance offers are excluded.",
        "**Can someone else collect my order?** Yes, if they bring the collection code from your "
        "confirmation email and a photo identity document; you can change the name in your account "
        "until the order is ready.",
        "**What happens to my old appliance?** When we deliver a new large appliance we can take "
        "the old one away for recycling, provided it is disconnected and emptied before the team "
        "arrives.",
        "**Is there a student discount?** Students with a verified account receive ten percent "
        "off selected ranges twice a year, announced by email; the discount cannot be combined "
        "with other promotions.",
        "**Can I change my delivery address after ordering?** Only before the order is packed. "
        "After that, contact customer care and we will try to redirect the parcel with the "
        "carrier, which may add a day.",
        "**Why was my card charged twice?** Usually one of the two is a pre-authorisation that "
        "your bank releases within a few days; if both remain after a week, send us your bank "
        "statement and we will investigate.",
        "**Do gift cards expire?** MegaMart gift cards are valid for twenty-four months from the "
        "last time they were used or topped up, and the balance is shown on every receipt.",
        "**Can I return an item to a different store?** Yes, any MegaMart store accepts returns of "
        "items bought online or in another store, except for large items that need collection.",
        "**How do I get an invoice for my business?** Add your company name and VAT number in your "
        "account before ordering, and a VAT invoice is attached to the dispatch email.",
    ),
    "reviews": (
        '"Solid and quiet, does exactly what it says. Setup took ten minutes." (4 out of 5, '
        "verified buyer)",
        '"Delivered a day early and the driver carried it inside. Very happy with the service '
        'from MegaMart." (5 out of 5, verified buyer)',
        '"The manual could be clearer, but the support line sorted my question in one call." '
        "(4 out of 5, verified buyer)",
        '"Returned the first one because of a scratch; the replacement arrived within the week '
        'with no argument." (3 out of 5, verified buyer)',
        '"Good value for money. I compared three shops and this was the best price with '
        'delivery included." (5 out of 5, verified buyer)',
        '"It is bigger than it looks in the photos, so measure your space before you order." '
        "(3 out of 5, verified buyer)",
        '"Uses less power than my old one and the display is easy to read without glasses." '
        "(5 out of 5, verified buyer)",
        '"The app is optional, which I appreciate; everything works from the buttons." (4 out '
        "of 5, verified buyer)",
        '"Staff in store let me try it before buying and explained the differences between the '
        'models honestly." (5 out of 5, verified buyer)',
        '"A bit loud on the highest setting, otherwise no complaints after three months of daily '
        'use." (4 out of 5, verified buyer)',
    ),
}

MEANINGS = (
    ("Water tank empty", "Refill the tank to the MAX line and press start again."),
    ("Lid not closed", "Close the lid firmly until it clicks, then restart."),
    ("Overheating protection", "Switch off, unplug and let the unit cool for thirty minutes."),
    ("Temperature sensor fault", "Unplug for one minute; if it returns, book a repair."),
    ("Descaling needed", "Run the descaling programme with MegaMart descaler."),
    ("Filter blocked", "Remove the filter, rinse it under the tap and refit it."),
    ("Motor overload", "Reduce the load by half and restart after two minutes."),
    ("Door sensor fault", "Check that nothing blocks the door, then book a repair."),
    ("Low voltage detected", "Plug into another socket without an extension lead."),
    ("Firmware update failed", "Hold the power button for ten seconds to retry the update."),
    ("Fan fault", "Clean the rear vents; if it persists, book a repair."),
    ("Drain pump blocked", "Clear the pump filter behind the lower flap."),
    ("Battery too cold", "Charge indoors at room temperature."),
    ("Pressure too high", "Release the pressure valve and wait five minutes."),
)

BRANDS = ("Norrvik", "Calloway", "Teskin", "Brightwell", "Okada", "Hartmann", "Vessel")
CATEGORIES = (
    ("kettle", "KT"),
    ("coffee machine", "CM"),
    ("air fryer", "AF"),
    ("robot vacuum", "RV"),
    ("dishwasher", "DW"),
    ("washing machine", "WM"),
    ("microwave", "MW"),
    ("stand mixer", "SM"),
    ("dehumidifier", "DH"),
    ("pressure cooker", "PC"),
    ("cordless drill", "CD"),
    ("electric toothbrush", "ET"),
    ("blender", "BL"),
)
COLOURS = ("white", "black", "graphite", "sage green", "cream", "steel", "navy")
CITIES = (
    "Arnhem",
    "Bergamo",
    "Coimbra",
    "Dunmore",
    "Eskilstuna",
    "Falkirk",
    "Gdynia",
    "Haarlem",
    "Innsbruck",
    "Jyvaskyla",
    "Kortrijk",
    "Leiria",
    "Mainz",
    "Nantes",
    "Odense",
)
DISTRICTS = ("North", "Central", "Riverside")
DEPARTMENTS = (
    "Small kitchen appliances",
    "Large appliances",
    "Televisions",
    "Computing",
    "Phones",
    "Gaming",
    "Garden tools",
    "Power tools",
    "Lighting",
    "Home textiles",
    "Cookware",
    "Toys",
    "Sports",
    "Pet supplies",
    "Baby",
    "Stationery",
    "Health and beauty",
    "Cleaning",
)
REGIONS = ("North", "South", "Islands")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass
class Page:
    """A page being written: its text so far and where each fact landed."""

    id: str
    parts: list[str] = field(default_factory=list)
    size: int = 0
    facts: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def add(self, text: str) -> None:
        """Append plain text."""
        self.parts.append(text)
        self.size += len(text)

    def fact(self, key: str, text: str) -> None:
        """Append ``text`` and record it as an answer to fact ``key``."""
        self.facts.setdefault(key, []).append((self.size, self.size + len(text)))
        self.add(text)

    @property
    def text(self) -> str:
        """The page so far."""
        return "".join(self.parts)


@dataclass
class Question:
    """A question, its class and the (page, fact) pairs whose every location answers it."""

    id: str
    kind: str
    text: str
    facts: list[tuple[str, str]]


def prose(rng: random.Random, pool: str, n: int, **slots: str) -> str:
    """``n`` distinct sentences of a pool in a random order, as two paragraphs."""
    picked = rng.sample(POOLS[pool], min(n, len(POOLS[pool])))
    lines = [s.format(**slots) for s in picked]
    half = (len(lines) + 1) // 2
    return " ".join(lines[:half]) + "\n\n" + " ".join(lines[half:]) + "\n\n"


def product_pages(rng: random.Random) -> tuple[list[Page], list[Question]]:
    """Product guides: families of three sibling models that share their wording."""
    pages: list[Page] = []
    questions: list[Question] = []
    families = [(b, c) for c in CATEGORIES for b in rng.sample(BRANDS, 2)][:26]
    for family, (brand, (cat, code)) in enumerate(families):
        base = 100 + 10 * family
        codes = [f"E{n}" for n in sorted(rng.sample(range(1, 40), 8))]
        for variant in range(3):
            text_rng = random.Random(family * 7919)  # siblings share their wording
            model = f"{code}-{base + variant * 2}"
            name = f"{brand} {model}"
            sku = f"SKU-{rng.randrange(100000, 999999)}"
            page = Page(f"product-{model.lower()}")
            slots = {"name": name, "brand": brand, "cat": cat, "city": ""}
            watts = rng.choice((600, 800, 1200, 1500, 1800, 2000, 2200, 2400))
            weight = f"{rng.randint(8, 140) / 10:.1f}"
            years = rng.choice((1, 2, 3, 5))
            colour = rng.choice(COLOURS)
            page.add(f"# {name} {cat}: product guide\n\n")
            page.add("## Overview\n\n" + prose(text_rng, "overview", 6, **slots))
            page.fact(
                "sku",
                f"The {name} in {colour} is sold under MegaMart article number {sku}.",
            )
            page.add(" Other colours have their own article numbers.\n\n")
            page.add("## Specifications\n\n| Specification | Value |\n| --- | --- |\n")
            # The table's two rows name the model and its article number: a second answer.
            page.fact("sku", f"| Model | {model} |\n| Article number | {sku} |")
            page.add("\n")
            page.fact("watts", f"| Rated power | {watts} W |")
            page.add("\n")
            page.fact("weight", f"| Weight | {weight} kg |")
            page.add("\n")
            page.fact("warranty", f"| Warranty | {years} years |")
            page.add(
                f"\n| Colour | {colour} |\n| Cable length | {rng.choice((0.8, 1.0, 1.2, 1.5))} m |\n"
            )
            page.add(
                f"| Noise level | {rng.randint(38, 72)} dB |\n| Energy class | {rng.choice('ABCDE')} |\n\n"
            )
            page.add("## Getting started\n\n" + prose(text_rng, "setup", 7, **slots))
            page.add("## Everyday care\n\n" + prose(text_rng, "care", 7, **slots))
            page.add(
                f"## Error codes\n\nThe display shows a code when the {cat} needs attention.\n\n"
            )
            page.add("| Code | Meaning | What to do |\n| --- | --- | --- |\n")
            meanings = rng.sample(MEANINGS, len(codes))  # siblings: same codes, other meanings
            for ecode, (meaning, action) in zip(codes, meanings, strict=True):
                page.fact(f"error-{ecode}", f"| {ecode} | {meaning} | {action} |")
                page.add("\n")
            page.add(
                "\n## Accessories and spare parts\n\n| Part number | Part | Price |\n| --- | --- | --- |\n"
            )
            parts = rng.sample(
                (
                    "Filter",
                    "Seal",
                    "Lid",
                    "Jug",
                    "Brush head",
                    "Basket",
                    "Battery",
                    "Charger",
                    "Hose",
                    "Tray",
                ),
                5,
            )
            part_numbers = []
            for part in parts:
                number = f"PN-{rng.randrange(10000, 99999)}"
                part_numbers.append((number, part))
                page.fact(
                    f"part-{number}",
                    f"| {number} | {part} for the {model} | {rng.randint(4, 60)}.{rng.choice(('00', '49', '99'))} EUR |",
                )
                page.add("\n")
            page.add("\n## Safety\n\n" + prose(text_rng, "safety", 6, **slots))
            page.add("## Warranty and returns\n\n")
            page.fact(
                "warranty",
                f"The {name} comes with a {years}-year MegaMart warranty from the date of delivery.",
            )
            page.add(" " + prose(text_rng, "returns", 6, **slots))
            page.add("## Delivery options\n\n" + prose(text_rng, "delivery", 8, **slots))
            page.add("## Our returns policy in brief\n\n" + prose(text_rng, "policy", 8, **slots))
            page.add(
                "## Questions customers ask\n\n"
                + "\n\n".join(text_rng.sample(POOLS["faq"], 7))
                + "\n\n"
            )
            page.add(
                "## What customers say\n\n"
                + "\n\n".join(text_rng.sample(POOLS["reviews"], 7))
                + "\n\n"
            )
            page.add("## Contact\n\n" + prose(text_rng, "contact", 8, **slots))
            pages.append(page)
            pid = page.id
            ecode = rng.choice(codes)
            number, part = rng.choice(part_numbers)
            questions += [
                Question(
                    f"{pid}-error",
                    "identifier",
                    f"What does error {ecode} mean on the {name}?",
                    [(pid, f"error-{ecode}")],
                ),
                Question(
                    f"{pid}-part",
                    "identifier",
                    f"Which part has part number {number}, and what does it cost?",
                    [(pid, f"part-{number}")],
                ),
                Question(
                    f"{pid}-warranty",
                    "prose",
                    f"How long is the guarantee on my {brand} {cat}, the {model}?",
                    [(pid, "warranty")],
                ),
                Question(f"{pid}-weight", "prose", f"How heavy is the {name}?", [(pid, "weight")]),
                Question(
                    f"{pid}-sku",
                    "identifier",
                    f"Which {brand} {cat} is article {sku}?",
                    [(pid, "sku")],
                ),
            ]
            if variant == 1:
                questions.append(
                    Question(
                        f"{pid}-watts",
                        "prose",
                        f"How much power does the {name} {cat} draw?",
                        [(pid, "watts")],
                    )
                )
    return pages, questions


def store_pages(rng: random.Random) -> tuple[list[Page], list[Question]]:
    """Store pages: branches of one template, with their own hours, aisles and addresses."""
    pages: list[Page] = []
    questions: list[Question] = []
    text_seed = rng.random()
    for city in CITIES:
        for district in DISTRICTS:
            number = rng.randrange(1000, 9999)
            text_rng = random.Random(text_seed)
            page = Page(f"store-{number}")
            place = f"{city} {district}"
            slots = {"name": "", "brand": "", "cat": "", "city": place}
            street = rng.choice(
                (
                    "Market Street",
                    "Station Road",
                    "Harbour Way",
                    "Mill Lane",
                    "Park Avenue",
                    "Canal Walk",
                )
            )
            page.add(f"# MegaMart {place} (store {number})\n\n## About this store\n\n")
            page.fact(
                "address",
                f"Store {number} is at {rng.randint(1, 180)} {street}, {city}, with its main entrance facing the car park.",
            )
            page.add(" " + prose(text_rng, "store", 10, **slots))
            page.add("## Opening hours\n\n| Day | Opens | Closes |\n| --- | --- | --- |\n")
            for day in DAYS:
                opens = (
                    rng.choice(("07:00", "08:00", "09:00"))
                    if day != "Sunday"
                    else rng.choice(("10:00", "11:00"))
                )
                closes = (
                    rng.choice(("20:00", "21:00", "22:00"))
                    if day != "Sunday"
                    else rng.choice(("16:00", "17:00", "18:00"))
                )
                page.fact(f"hours-{day}", f"| {day} | {opens} | {closes} |")
                page.add("\n")
            page.add("\n## Store directory\n\n| Aisle | Department |\n| --- | --- |\n")
            aisles = rng.sample(DEPARTMENTS, 14)
            codes = []
            for n, department in enumerate(aisles, start=1):
                aisle = f"{rng.choice('ABCD')}{n:02d}"
                codes.append((aisle, department))
                page.fact(f"aisle-{aisle}", f"| {aisle} | {department} |")
                page.add("\n")
            page.add("\n## Parking and access\n\n")
            spaces = rng.choice((120, 180, 240, 300, 450))
            page.fact(
                "parking",
                f"The car park at the {place} store has {spaces} spaces, and parking is free for the first {rng.choice((2, 3))} hours.",
            )
            page.add(" " + prose(text_rng, "delivery", 8, **slots))
            page.add("## Returns at this store\n\n" + prose(text_rng, "returns", 8, **slots))
            page.add("## Contact\n\n" + prose(text_rng, "contact", 8, **slots))
            page.add(
                "## Services\n\n"
                + prose(
                    text_rng,
                    "care",
                    4,
                    name="your appliance",
                    brand="",
                    cat="appliance",
                    city=place,
                )
            )
            page.add(
                "## Returns and refunds\n\n"
                + prose(text_rng, "policy", 10, name="", brand="", cat="items", city=place)
            )
            page.add(
                "## Frequently asked at this store\n\n"
                + "\n\n".join(text_rng.sample(POOLS["faq"], 8))
                + "\n\n"
            )
            page.add(
                "## What customers say\n\n"
                + "\n\n".join(text_rng.sample(POOLS["reviews"], 6))
                + "\n\n"
            )
            pages.append(page)
            pid = page.id
            day = rng.choice(DAYS)
            aisle, department = rng.choice(codes)
            questions += [
                Question(
                    f"{pid}-hours",
                    "prose",
                    f"What time does MegaMart in {place} close on {day}?",
                    [(pid, f"hours-{day}")],
                ),
                Question(
                    f"{pid}-aisle",
                    "identifier",
                    f"What is in aisle {aisle} at the {place} store?",
                    [(pid, f"aisle-{aisle}")],
                ),
                Question(
                    f"{pid}-address",
                    "identifier",
                    f"Where is MegaMart store {number}?",
                    [(pid, "address")],
                ),
                Question(
                    f"{pid}-parking",
                    "prose",
                    f"Is parking free at the {place} MegaMart, and how many spaces are there?",
                    [(pid, "parking")],
                ),
            ]
    return pages, questions


def policy_pages(rng: random.Random) -> tuple[list[Page], list[Question]]:
    """Returns policies per category and region: regional variants differ in the numbers."""
    pages: list[Page] = []
    questions: list[Question] = []
    for cat, code in CATEGORIES[:11]:
        text_seed = rng.random()
        for region in REGIONS:
            days = rng.choice((14, 28, 30, 35, 45, 60, 90))
            fee = rng.choice((0, 5, 10, 15, 20))
            policy = f"RP-{code}-{region[0]}{days}"
            text_rng = random.Random(text_seed)
            page = Page(f"returns-{code.lower()}-{region.lower()}")
            slots = {"name": f"a {cat}", "brand": "", "cat": cat + "s", "city": ""}
            page.add(f"# Returns policy: {cat}s, {region} region\n\n## Summary\n\n")
            page.fact(
                "window",
                f"Policy {policy} lets you return an unopened {cat} bought in the {region} region within {days} days of delivery.",
            )
            page.add(" " + prose(text_rng, "policy", 8, **slots))
            page.add("## Opened items\n\n")
            if fee:
                page.fact(
                    "fee",
                    f"Opened {cat}s returned in the {region} region for a change of mind carry a restocking fee of {fee} percent of the price.",
                )
            else:
                page.fact(
                    "fee",
                    f"Opened {cat}s returned in the {region} region for a change of mind are refunded in full, with no restocking fee.",
                )
            page.add(" " + prose(text_rng, "returns", 8, **slots))
            page.add("## How to start a return\n\n" + prose(text_rng, "contact", 8, **slots))
            page.add("## Delivery and collection\n\n" + prose(text_rng, "delivery", 8, **slots))
            page.add(
                "## Care before returning\n\n"
                + prose(text_rng, "care", 8, name=f"the {cat}", brand="", cat=cat, city="")
            )
            page.add(
                "## Safety\n\n"
                + prose(text_rng, "safety", 8, name=f"the {cat}", brand="", cat=cat, city="")
            )
            page.add(
                "## Examples\n\n| Delivered on | Return by | Unopened refund | Opened refund |\n| --- | --- | --- | --- |\n"
            )
            for month, day in sorted(
                rng.sample([(m, d) for m in range(1, 13) for d in (3, 11, 19, 27)], 10)
            ):
                page.add(
                    f"| {day:02d}.{month:02d}. | {days} days later | 100 % | {100 - fee} % |\n"
                )
            page.add(
                "\n## Questions customers ask\n\n"
                + "\n\n".join(text_rng.sample(POOLS["faq"], 9))
                + "\n\n"
            )
            pages.append(page)
            pid = page.id
            questions += [
                Question(
                    f"{pid}-window",
                    "identifier",
                    f"How many days does policy {policy} give me?",
                    [(pid, "window")],
                ),
                Question(
                    f"{pid}-fee",
                    "prose",
                    f"I opened a {cat} I bought in the {region} region and changed my mind: is there a fee to send it back?",
                    [(pid, "fee")],
                ),
            ]
    return pages, questions


def zone_pages(rng: random.Random) -> tuple[list[Page], list[Question]]:
    """Delivery zones: one page per area with its zone codes, fees and cut-off times."""
    pages: list[Page] = []
    questions: list[Question] = []
    text_seed = rng.random()
    for city in CITIES:
        text_rng = random.Random(text_seed)
        page = Page(f"delivery-{city.lower()}")
        slots = {"name": "", "brand": "", "cat": "", "city": city}
        page.add(f"# Home delivery in {city} and surroundings\n\n## Delivery zones\n\n")
        page.add("| Zone | Area | Standard fee | Next-day fee |\n| --- | --- | --- | --- |\n")
        zones = []
        for n in range(rng.randint(8, 12)):
            zone = f"Z-{city[:3].upper()}{n + 1:02d}"
            area = f"{city} {rng.choice(('East', 'West', 'Old Town', 'Harbour', 'Hills', 'Airport', 'University', 'Lakeside', 'Station', 'Industrial Park'))} {n + 1}"
            zones.append(zone)
            page.fact(
                f"zone-{zone}",
                f"| {zone} | {area} | {rng.choice(('free', '2.95 EUR', '4.95 EUR'))} | {rng.choice(('5.95 EUR', '7.95 EUR', '9.95 EUR'))} |",
            )
            page.add("\n")
        page.add("\n## Cut-off times\n\n")
        cutoff = rng.choice(("14:00", "16:00", "18:00", "20:00"))
        page.fact(
            "cutoff",
            f"For next-day delivery in {city}, place your order before {cutoff} on a working day.",
        )
        page.add(" " + prose(text_rng, "delivery", 8, **slots))
        page.add("## Large items\n\n" + prose(text_rng, "returns", 8, **slots))
        page.add("## Help with your delivery\n\n" + prose(text_rng, "contact", 7, **slots))
        page.add("## About our stores\n\n" + prose(text_rng, "store", 7, **slots))
        page.add(
            "## Returns by courier\n\n"
            + prose(text_rng, "policy", 6, name="", brand="", cat="items", city=city)
        )
        page.add(
            "## Delivery slots\n\n| Day | Morning | Afternoon | Evening |\n| --- | --- | --- | --- |\n"
        )
        for day in DAYS:
            page.add(
                f"| {day} | "
                + " | ".join(rng.choice(("available", "limited", "not offered")) for _ in range(3))
                + " |\n"
            )
        page.add(
            "\n## Questions customers ask\n\n"
            + "\n\n".join(text_rng.sample(POOLS["faq"], 10))
            + "\n\n"
        )
        page.add(
            "## Safety at the door\n\n"
            + prose(
                text_rng, "safety", 5, name="the delivered item", brand="", cat="item", city=city
            )
        )
        pages.append(page)
        pid = page.id
        zone = rng.choice(zones)
        questions += [
            Question(
                f"{pid}-zone",
                "identifier",
                f"What does delivery cost in zone {zone}?",
                [(pid, f"zone-{zone}")],
            ),
            Question(
                f"{pid}-cutoff",
                "prose",
                f"By what time do I need to order to get it delivered tomorrow in {city}?",
                [(pid, "cutoff")],
            ),
        ]
    return pages, questions


def generate(out: Path, seed: int = SEED) -> tuple[int, int]:
    """Write the corpus to ``out``; return the number of pages and questions."""
    rng = random.Random(seed)
    pages: list[Page] = []
    questions: list[Question] = []
    for build in (product_pages, store_pages, policy_pages, zone_pages):
        more_pages, more_questions = build(rng)
        pages += more_pages
        questions += more_questions
    by_id = {p.id: p for p in pages}
    assert len(by_id) == len(pages), "two pages share an id"
    folder = out / "pages"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.md"):
        old.unlink()
    for page in pages:
        (folder / f"{page.id}.md").write_bytes(page.text.encode("utf-8"))
    lines = []
    for q in questions:
        gold = []
        for pid, key in q.facts:
            text = by_id[pid].text
            for start, end in by_id[pid].facts[key]:
                gold.append({"doc": pid, "start": start, "end": end, "quote": text[start:end]})
        record = {"id": q.id, "class": q.kind, "question": q.text, "gold": gold}
        lines.append(json.dumps(record, ensure_ascii=False))
    (out / "queries.jsonl").write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    return len(pages), len(questions)


def main(argv: Sequence[str]) -> int:
    """Regenerate the corpus (default: the bundled folder) and print its size."""
    out = (
        Path(argv[0])
        if argv
        else Path(__file__).parents[1] / "src" / "chunkspec" / "_evaluation" / "megamart"
    )
    pages, questions = generate(out)
    print(f"{out}: {pages} pages, {questions} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
