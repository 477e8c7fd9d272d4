/**
 * General conversations of the natural-question set (LoCoMo-style): Gina's online store and a later Caroline
 * session that revisits earlier events (adoption, the conference, Luna), so old and new turns compete.
 */
import { a, keyed, type NaturalSession, q, u } from "./set.js";

export const MORE_LIFE_SESSIONS: NaturalSession[] = [
	{
		label: "gina-february",
		cwd: "/home/gina/shop",
		start: "2023-02-08T15:00:00.000Z",
		turns: [
			u(
				"Hi, Gina here. After I lost my job at the marketing agency I decided to open an online clothing store, vintage dresses mostly.",
				q("What kind of store did Gina open?", "question-form"),
				q("gina selling vintage clothes online", "inflection"),
				q("gina marketing agency laid off vintage", "keywords"),
			),
			a("Vintage dresses online is a great niche. Have you picked a platform for the store yet?"),
			u(
				"Shopify, the basic plan. I bought my first 60 dresses at an estate sale in Tacoma for $900.",
				q("where did Gina buy her first stock", "paraphrase"),
				q("estate sale dresses price", "keywords"),
			),
			u(
				"Jon helped me take product photos in his new studio space, the natural light there is perfect.",
				q("who took the product photographs with Gina", "inflection"),
			),
			a(
				"Good photos matter most for vintage. Describe measurements in inches, note flaws honestly, and shoot every dress on a mannequin with the same background.",
				q("tips for listing vintage dresses", "inflection"),
			),
			u(
				"My first sale came in this morning! A 1970s floral maxi dress went to a customer in Ohio.",
				q("When did Gina make her first sale?", "question-form"),
				q("first order seventies floral dress", "paraphrase"),
			),
		],
	},
	{
		label: "gina-august",
		cwd: "/home/gina/shop",
		start: "2023-08-16T11:25:00.000Z",
		turns: [
			u(
				"Gina again. The Instagram ad campaign is working, sales tripled in July compared to June.",
				q("how much did sales grow after the ads", "inflection"),
			),
			a("Tripling sales is huge, Gina! What did the campaign look like?"),
			u(
				"Short reels of me styling one dress three ways, with a 10% code for first orders.",
				q("what discount code did Gina offer on first orders", "paraphrase"),
			),
			u(
				"I'm thinking of opening a small physical shop next to Jon's dance studio, the rent is $1,800.",
				q("Where does Gina want to open a physical store?", "question-form"),
				q("store next to the dance studio", "paraphrase"),
			),
			a(
				"Being next to the studio could bring foot traffic from dancers. Check the lease length and whether the online sales alone can cover the rent for six months.",
			),
			u(
				"I also hired my cousin Rosa part time to handle shipping and returns.",
				q("who did Gina hire part time", "inflection"),
				q("part-time help packing orders", "paraphrase"),
			),
			u(
				"Melanie bought a green wrap dress for her anniversary dinner, she looked amazing.",
				q("what did Melanie buy from Gina's shop", "inflection"),
			),
		],
	},
	{
		label: "caroline-november",
		cwd: "/home/caroline/journal",
		start: "2023-11-11T10:10:00.000Z",
		turns: [
			keyed(
				"caroline-talk-went-well",
				u(
					"Caroline here. The conference talk in Portland went so well, people lined up afterwards to thank me, a mom cried telling me about her trans daughter.",
					q("How did Caroline's talk at the transgender conference go?", "question-form"),
					q("reactions after my portland speech", "paraphrase"),
				),
			),
			a("That must have been very moving, Caroline. How do you feel now that the talk is behind you?"),
			u(
				"Proud, and tired. The agency called: they have a possible match, a 4 year old girl. I'm meeting her caseworker next week.",
				q("what did the adoption agency tell Caroline in November", "paraphrase"),
				q("possible match four year old girl", "inflection"),
			),
			a(
				"That's huge news! For the caseworker meeting, ask about her routines, what comforts her, her school and therapy needs, and how visits before placement would work.",
				q("questions for the caseworker meeting", "inflection"),
			),
			u(
				"Luna has been great with the neighbour's kids, so I think she'll be fine with a child in the house.",
				q("is Luna good with children", "paraphrase"),
			),
			u(
				"I painted the spare room soft green last weekend and put up shelves with picture books.",
				q("When did Caroline paint the spare room?", "question-form"),
				q("getting the kid's room ready with books", "inflection"),
			),
			u(
				"The counseling course has a practicum next semester, I'll be placed at an LGBTQ youth center two days a week.",
				q("where will Caroline do her counseling practicum", "inflection"),
				q("lgbtq youth center practicum schedule", "keywords"),
			),
		],
	},
];
