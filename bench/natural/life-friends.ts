/**
 * General conversations of the natural-question set (LoCoMo-style): Melanie's notes and Jon's assistant, over
 * months; their events overlap Caroline's (the same people, painting, races, trips), so ranking decides.
 */
import { a, type NaturalSession, q, u } from "./set.js";

export const FRIENDS_SESSIONS: NaturalSession[] = [
	{
		label: "melanie-may",
		cwd: "/home/melanie/notes",
		start: "2023-05-20T07:30:00.000Z",
		turns: [
			u(
				"Melanie here. I signed up for a pottery class on Thursdays, I've always wanted to work with clay.",
				q("When did Melanie start taking pottery classes?", "question-form"),
				q("melanie clay workshop", "paraphrase"),
			),
			a("Pottery is such a grounding hobby. What would you like to make first?"),
			u(
				"Bowls, and a mug for my husband. The kids want to come too but they're 6 and 9, a bit young for the wheel.",
				q("how old are Melanie's kids", "paraphrase"),
			),
			u(
				"We're planning a camping trip to the beach in June, the kids have never slept in a tent.",
				q("Where is Melanie's family going camping?", "question-form"),
				q("beach camping plans for june", "keywords"),
			),
			a("A first camping trip at the beach sounds exciting. Do you need a packing list for the tent trip?"),
			u(
				"Yes! Also remind me the violin lessons move to Wednesdays next month.",
				q("which day are the violin lessons now", "paraphrase"),
			),
			a(
				"Packing list: tent, sleeping bags, headlamps, sunscreen, a first aid kit, water shoes, and a windbreak. Reminder noted: violin lessons on Wednesdays from June.",
				q("what should we pack for the tent trip", "inflection"),
			),
			u(
				"I also read Charlotte's Web to my daughter every night, she cries at the end every time.",
				q("which book does Melanie read to her daughter", "inflection"),
			),
		],
	},
	{
		label: "melanie-july",
		cwd: "/home/melanie/notes",
		start: "2023-07-09T21:15:00.000Z",
		turns: [
			u(
				"The beach camping trip was amazing, we saw dolphins on the second morning and the kids roasted marshmallows every night.",
				q("what animals did Melanie's family see at the beach", "paraphrase"),
				q("dolphins seen while camping", "inflection"),
			),
			a("Dolphins! That's a memory the kids will keep. How did they like sleeping in the tent?"),
			u(
				"They loved it. I'm training for a 5k charity run for mental health on the 15th, I run three mornings a week.",
				q("How often does Melanie go running?", "question-form"),
				q("training schedule for the charity 5k", "inflection"),
				q("melanie 5k mental health run training", "keywords"),
			),
			u(
				"My son fell off his bike yesterday and broke his wrist, we spent the whole night in the ER.",
				q("What happened to Melanie's son?", "question-form"),
				q("son broken wrist bicycle", "keywords"),
			),
			a(
				"I'm sorry, that sounds scary. How is he feeling? Broken wrists in kids usually heal in about six weeks with a cast.",
			),
			u(
				"He's okay, proud of his blue cast. I made a pot in class this week and painted a little dog on it for him.",
				q("what did Melanie paint on the pot for her son", "inflection"),
			),
			u(
				"Caroline told me she's going to be a counselor, I think she'll be amazing at it.",
				q("what does Melanie think of Caroline's new career", "paraphrase"),
			),
		],
	},
	{
		label: "melanie-october",
		cwd: "/home/melanie/notes",
		start: "2023-10-14T16:45:00.000Z",
		turns: [
			u(
				"We just got back from a road trip to the Grand Canyon, we drove 1,900 miles in ten days.",
				q("Where did Melanie go on a road trip?", "question-form"),
				q("how far did we drive on the canyon trip", "paraphrase"),
			),
			a("What an adventure! What was the highlight of the Grand Canyon trip?"),
			u(
				"The best part of the Grand Canyon was watching the sunrise at Mather Point with the kids wrapped in blankets. I want to paint it.",
				q("favourite moment of the grand canyon visit", "paraphrase"),
			),
			u(
				"Caroline's sunrise painting is hanging above our piano, every guest asks about it.",
				q("where did Melanie hang the painting from Caroline", "inflection"),
			),
			a("It's lovely that her gift gets noticed. Are you painting your own sunrise next?"),
			u(
				"Maybe in pottery glaze instead! I'm also starting clarinet lessons, I played as a teenager and miss it.",
				q("What instrument did Melanie play as a teenager?", "question-form"),
				q("clarinet classes again", "paraphrase"),
			),
			a("Welcome back to the clarinet! Are you thinking of joining a community band once your lessons get going?"),
			u(
				"We raised $1,240 for the mental health charity with the run in July, more than I hoped.",
				q("how much money did the charity run raise", "inflection"),
			),
		],
	},
	{
		label: "jon-january",
		cwd: "/home/jon/assistant",
		start: "2023-01-19T12:10:00.000Z",
		turns: [
			u(
				"Jon here. I lost my job at the bank today, they cut the whole team. I don't know what to do.",
				q("When did Jon lose his job at the bank?", "question-form"),
				q("jon laid off banking", "paraphrase"),
			),
			a("I'm sorry, Jon. Losing a job is hard. Do you want to talk about what you'd like to do next?"),
			u(
				"Honestly I've always wanted to open my own dance studio. I danced competitively until I was 20.",
				q("What business does Jon want to start?", "question-form"),
				q("own dancing studio dream", "inflection"),
			),
			a(
				"A dance studio combines your passion and your experience. A first step could be a business plan: location, classes, pricing, and startup costs.",
				q("first steps for opening the studio", "inflection"),
			),
			u(
				"I have about $30k in savings, and I've been researching rents: a space downtown is around $2,500 a month.",
				q("how much money did Jon have in savings", "paraphrase"),
			),
			u(
				"My friend Gina also lost her job recently, she wants to sell clothes online.",
				q("which friend of Jon lost her job too", "paraphrase"),
			),
		],
	},
	{
		label: "jon-march",
		cwd: "/home/jon/assistant",
		start: "2023-03-27T10:00:00.000Z",
		turns: [
			u(
				"Jon again. I found a space for the studio! 1,200 square feet with a sprung floor, in the old warehouse on 5th street.",
				q("where is Jon's dance studio located", "inflection"),
				q("studio location with sprung floors", "inflection"),
			),
			a("Congratulations! A sprung floor is exactly what a dance studio needs. When do you sign the lease?"),
			u(
				"Next Monday. I'm pitching to two investors on Friday to cover the renovation, and later to hire instructors.",
				q("When is Jon meeting investors?", "question-form"),
			),
			a(
				"For the investor pitch: show the market (dance classes nearby are full), your competition record, a two-year budget, and the membership pricing.",
				q("what to include in the pitch to investors", "inflection"),
			),
			u(
				"I just got back from Paris, by the way, a friend paid for the trip. I took a contemporary dance workshop there.",
				q("Which city did Jon take a trip to?", "question-form"),
				q("paris dance workshops", "inflection"),
			),
			u(
				"The grand opening is planned for June 20th. I'll offer free salsa classes all that week.",
				q("When is the grand opening of Jon's studio?", "question-form"),
				q("free salsa lessons opening week", "inflection"),
			),
		],
	},
	{
		label: "jon-june",
		cwd: "/home/jon/assistant",
		start: "2023-06-24T22:30:00.000Z",
		turns: [
			u(
				"The opening week was packed! 140 people came to the free salsa classes and 38 signed up for memberships.",
				q("how many people joined at the opening", "paraphrase"),
				q("jon opening week salsa signups", "keywords"),
			),
			a("That's a great start, Jon! 38 memberships in the first week is impressive."),
			u(
				"Gina's online clothing store is doing well too, she's running an ad campaign on Instagram.",
				q("how is Gina promoting her clothes shop", "paraphrase"),
			),
			u(
				"One investor backed out at the last minute so I took a small business loan of $40k for the renovation instead of touching my savings.",
				q("How did Jon pay for the renovation?", "question-form"),
				q("business loan after the investors pulled out", "inflection"),
			),
			a("A loan keeps you in control. Do you want help planning the monthly repayments against membership income?"),
			u(
				"Yes. Memberships are $89 a month, and I'm hiring two instructors for hip hop and ballet.",
				q("which dance styles will the new instructors teach", "paraphrase"),
				q("membership price per month", "keywords"),
			),
		],
	},
];
