"""A seeded literature whose ground truth is known: an offline stand-in for PubMed.

Each simulated query (intervention, comparator, outcome, desired direction) has a true
label and a literature of varying size. Publication bias: a study of a null effect reports
a favourable finding with probability 1/2 + b * g(u), where u in (0, 1) is its position in
the relevance ranking and g(u) = 1 + c (2u - 1) averages 1, so the share of favourable
reports is 1/2 + b overall while the first (largest, most relevant) trials are the most
reliable and the last the most biased (c is the rank gradient).

The abstracts are English text (results with effect sizes, CIs and P values, hedged null
results, abbreviations defined in parentheses, mechanism sentences, distractor outcomes).
An `Abstract` carries only what PubMed would show; what each study found lives in its
`StudyKey`, an answer key the extractor never sees.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pipeline.model import Abstract, Entity, Label, Polarity, Query, normalise_name
from pipeline.retrieval.source import EmptyResult, ListCursor, SearchConstraints


class SimulationError(ValueError):
    """An impossible simulator setting; the message is one line."""


# --------------------------------------------------------------------------------------
# Vocabulary: ten clinical areas. Lines: P: key = a population any intervention of the
# area may be studied in; p: key = a population only the interventions naming it are;
# I: name | abbreviation | synonyms | comparator [| population key]; O: name |
# abbreviation | synonyms | desired direction | "event" or unit and typical SD;
# M: name | abbreviation | synonyms.

_VOCABULARY = """
= cardiovascular
P: htn = adults with hypertension
P: cad = patients with stable coronary artery disease
P: cvrisk = adults at high cardiovascular risk
I: atorvastatin | | Lipitor | placebo
I: rosuvastatin | | Crestor | placebo
I: ezetimibe | | | placebo
I: aspirin | ASA | acetylsalicylic acid | placebo
I: clopidogrel | | Plavix | placebo
I: ramipril | | | placebo
I: losartan | | | placebo
I: amlodipine | | | placebo
I: metoprolol succinate | | metoprolol | placebo
I: spironolactone | | | placebo
I: omega-3 fatty acids | n-3 PUFA | fish oil | placebo
I: colchicine | | | placebo
I: dietary sodium reduction | | low-sodium diet; salt restriction | usual diet
I: aerobic exercise training | | aerobic exercise | usual care
O: systolic blood pressure | SBP | systolic BP | - | mmHg 12
O: low-density lipoprotein cholesterol | LDL-C | LDL cholesterol | - | mmol/L 0.8
O: myocardial infarction | MI | heart attack | - | event
O: stroke | | cerebrovascular accident | - | event
O: all-cause mortality | | death from any cause | - | event
O: major adverse cardiovascular events | MACE | | - | event
O: hospitalisation for heart failure | | heart failure hospitalisation | - | event
O: atrial fibrillation | AF | | - | event
O: left ventricular ejection fraction | LVEF | ejection fraction | + | % 7
O: peak oxygen uptake | VO2peak | exercise capacity | + | mL/kg/min 4
O: carotid intima-media thickness | CIMT | | - | mm 0.15
O: cardiovascular death | | cardiovascular mortality | - | event
M: C-reactive protein | CRP | high-sensitivity C-reactive protein
M: interleukin-6 | IL-6 |
M: flow-mediated dilation | FMD | endothelial function
M: pulse wave velocity | PWV | arterial stiffness
M: N-terminal pro-B-type natriuretic peptide | NT-proBNP |
M: plasma renin activity | PRA |

= diabetes
P: t2d = adults with type 2 diabetes
P: prediabetes = adults with prediabetes
P: igt = overweight adults with impaired glucose tolerance
p: obese-t2d = adults with obesity and type 2 diabetes
I: metformin | | Glucophage | placebo
I: empagliflozin | | | placebo
I: liraglutide | | | placebo
I: sitagliptin | | | placebo
I: pioglitazone | | | placebo
I: insulin glargine | | basal insulin glargine | NPH insulin
I: cholecalciferol | | vitamin D3 supplementation | placebo
I: low-carbohydrate diet | LCD | carbohydrate-restricted diet | low-fat diet
I: intermittent fasting | | time-restricted eating | continuous energy restriction
I: resistance training | | strength training | usual care
I: bariatric surgery | | metabolic surgery | intensive medical therapy | obese-t2d
I: chromium picolinate | | chromium supplementation | placebo
I: cinnamon extract | | cinnamon supplementation | placebo
I: structured lifestyle intervention | | intensive lifestyle programme | usual care
O: glycated haemoglobin | HbA1c | haemoglobin A1c | - | % 1.1
O: fasting plasma glucose | FPG | fasting glucose | - | mmol/L 1.5
O: body weight | | | - | kg 8
O: insulin resistance | HOMA-IR | | - | units 1.2
O: severe hypoglycaemia | | hypoglycaemic episodes | - | event
O: diabetic retinopathy progression | | progression of retinopathy | - | event
O: serum triglycerides | TG | triglyceride levels | - | mmol/L 0.9
O: waist circumference | WC | | - | cm 7
O: incident type 2 diabetes | | new-onset diabetes | - | event
O: high-density lipoprotein cholesterol | HDL-C | HDL cholesterol | + | mmol/L 0.3
O: urinary albumin-to-creatinine ratio | UACR | albuminuria | - | mg/g 40
O: diabetes-specific quality of life | | | + | points 10
M: insulin sensitivity | | peripheral insulin sensitivity
M: adiponectin | | serum adiponectin
M: beta-cell function | | β-cell function
M: hepatic fat content | | liver fat
M: tumour necrosis factor-alpha | TNF-α | TNF-alpha
M: leptin | | plasma leptin

= respiratory
P: copd = adults with chronic obstructive pulmonary disease
P: asthma = patients with persistent asthma
p: ahrf = adults with acute hypoxaemic respiratory failure
I: inhaled corticosteroids | ICS | inhaled steroids | placebo
I: tiotropium | | tiotropium bromide | placebo | copd
I: montelukast | | | placebo | asthma
I: long-term azithromycin | | azithromycin maintenance therapy | placebo | copd
I: pulmonary rehabilitation | | | usual care | copd
I: roflumilast | | | placebo | copd
I: high-flow nasal oxygen | HFNO | high-flow nasal cannula | conventional oxygen therapy | ahrf
I: non-invasive ventilation | NIV | | standard oxygen therapy | ahrf
I: omalizumab | | anti-IgE therapy | placebo | asthma
I: mepolizumab | | anti-IL-5 therapy | placebo | asthma
I: N-acetylcysteine | NAC | acetylcysteine | placebo
I: smoking cessation counselling | | | brief advice | copd
I: budesonide-formoterol | | | as-needed salbutamol | asthma
I: inspiratory muscle training | IMT | | sham training | copd
O: forced expiratory volume in 1 second | FEV1 | lung function | + | mL 180
O: moderate or severe exacerbations | | exacerbation rate | - | event
O: hospital admission | | hospitalisation | - | event
O: dyspnoea | | breathlessness | - | points 1.0
O: 6-minute walk distance | 6MWD | walking distance | + | m 60
O: St George's Respiratory Questionnaire score | SGRQ | | - | points 12
O: endotracheal intubation | | need for intubation | - | event
O: length of hospital stay | | | - | days 4
O: asthma control | | | + | points 0.8
O: rescue medication use | | reliever use | - | puffs/day 1.5
O: community-acquired pneumonia | | pneumonia | - | event
O: 90-day mortality | | | - | event
M: sputum eosinophil count | | eosinophilic airway inflammation
M: fractional exhaled nitric oxide | FeNO | exhaled nitric oxide
M: bronchial hyperresponsiveness | BHR | airway hyperresponsiveness
M: total immunoglobulin E | IgE | serum IgE
M: airway mucus hypersecretion | | mucus production
M: respiratory muscle strength | | inspiratory muscle strength

= mental health
P: mdd = adults with major depressive disorder
P: gad = adults with generalised anxiety disorder
P: late-life = older adults with late-life depression
p: trd = adults with treatment-resistant depression
I: sertraline | | | placebo
I: escitalopram | | | placebo
I: cognitive behavioural therapy | CBT | cognitive behavioral therapy | waiting list
I: mindfulness-based stress reduction | MBSR | mindfulness training | waiting list
I: bupropion | | | placebo
I: lithium augmentation | | | placebo | trd
I: ketamine | | intravenous ketamine | midazolam | trd
I: repetitive transcranial magnetic stimulation | rTMS | | sham stimulation | trd
I: supervised exercise programme | | exercise therapy | usual care
I: melatonin | | | placebo
I: quetiapine | | | placebo
I: duloxetine | | | placebo
I: acupuncture | | | sham acupuncture
I: behavioural activation | | | usual care
O: depressive symptoms | | depression severity | - | points 6
O: anxiety symptoms | | anxiety severity | - | points 5
O: remission | | | + | event
O: relapse | | recurrence of depression | - | event
O: suicidal ideation | | | - | event
O: sleep quality | | | + | points 3
O: cognitive function | | cognitive performance | + | points 4
O: treatment discontinuation | | dropout | - | event
O: weight gain | | | - | kg 3
O: health-related quality of life | HRQoL | quality of life | + | points 10
O: insomnia severity | | | - | points 5
O: psychiatric hospitalisation | | | - | event
M: brain-derived neurotrophic factor | BDNF | serum BDNF
M: salivary cortisol | | cortisol levels
M: hippocampal volume | |
M: hypothalamic-pituitary-adrenal axis reactivity | HPA | stress-axis reactivity
M: default mode network connectivity | DMN |
M: inflammatory cytokines | | pro-inflammatory cytokines

= infectious disease
P: ili = adults with influenza-like illness
P: pneumonia = hospitalised adults with pneumonia
P: diarrhoea = children with acute infectious diarrhoea
p: icu = patients in intensive care units
p: older = community-dwelling older adults
I: oseltamivir | | Tamiflu | placebo | ili
I: zinc lozenges | | zinc supplementation | placebo | ili
I: Lactobacillus rhamnosus GG | LGG | | placebo | diarrhoea
I: amoxicillin | | | placebo | pneumonia
I: hydroxychloroquine | HCQ | | standard care
I: ivermectin | | | placebo
I: chlorhexidine bathing | | daily chlorhexidine bathing | soap-and-water bathing | icu
I: influenza vaccination | | flu vaccine | placebo | older
I: procalcitonin-guided therapy | | procalcitonin guidance | standard care | pneumonia
I: short-course antibiotic therapy | | shortened antibiotic course | standard therapy | pneumonia
I: dexamethasone | | | usual care
I: remdesivir | | | placebo | pneumonia
I: vitamin C | | ascorbic acid | placebo | ili
I: oral rehydration solution | ORS | | intravenous rehydration | diarrhoea
O: symptom duration | | duration of symptoms | - | days 2
O: hospital admission | | hospitalisation | - | event
O: 28-day mortality | | | - | event
O: viral clearance | | | + | event
O: clinical cure | | treatment success | + | event
O: antibiotic-associated diarrhoea | AAD | | - | event
O: Clostridioides difficile infection | CDI | C. difficile infection | - | event
O: time to clinical recovery | | recovery time | - | days 3
O: bloodstream infection | BSI | bacteraemia | - | event
O: invasive mechanical ventilation | | mechanical ventilation | - | event
O: fever duration | | | - | hours 20
O: laboratory-confirmed influenza | | | - | event
M: viral load | | viral shedding
M: type I interferon response | | interferon signalling
M: neutrophil function | |
M: intestinal permeability | | gut barrier function
M: serum ferritin | | ferritin
M: interleukin-6 | IL-6 |

= oncology
P: chemo = adults receiving chemotherapy for solid tumours
P: advanced = patients with advanced cancer
p: emetogenic = adults receiving highly emetogenic chemotherapy
p: myelosuppressive = adults receiving myelosuppressive chemotherapy
p: breast = women with early breast cancer
p: bone-mets = patients with bone metastases from solid tumours
I: ondansetron | | | placebo | emetogenic
I: olanzapine | | | placebo | emetogenic
I: ginger extract | | ginger | placebo | emetogenic
I: erythropoiesis-stimulating agents | ESA | epoetin alfa | placebo | myelosuppressive
I: granulocyte colony-stimulating factor | G-CSF | filgrastim | no prophylaxis | myelosuppressive
I: tamoxifen | | | placebo | breast
I: denosumab | | | zoledronic acid | bone-mets
I: zoledronic acid | | zoledronate | no bone-targeted therapy | bone-mets
I: early palliative care | | | standard oncology care | advanced
I: supervised exercise during chemotherapy | | exercise training | usual care
I: dietary fat reduction | | low-fat dietary pattern | usual diet | breast
I: aromatase inhibitors | | anastrozole | tamoxifen | breast
I: megestrol acetate | | | placebo | advanced
I: acupressure wristbands | | acupressure | sham wristbands | emetogenic
O: chemotherapy-induced nausea and vomiting | CINV | nausea and vomiting | - | event
O: febrile neutropenia | FN | | - | event
O: overall survival | OS | | + | event
O: progression-free survival | PFS | | + | event
O: cancer-related fatigue | | fatigue | - | points 6
O: skeletal-related events | SRE | | - | event
O: breast cancer recurrence | | disease recurrence | - | event
O: haemoglobin concentration | Hb | | + | g/dL 1.2
O: cancer pain | | | - | points 1.8
O: red blood cell transfusion | | | - | event
O: venous thromboembolism | VTE | | - | event
O: appetite | | | + | points 1.5
M: Ki-67 proliferation index | Ki-67 |
M: bone turnover markers | | bone turnover
M: circulating tumour cells | CTCs |
M: vascular endothelial growth factor | VEGF |
M: absolute neutrophil count | ANC |
M: insulin-like growth factor 1 | IGF-1 |

= musculoskeletal
P: knee-oa = adults with knee osteoarthritis
P: osteoporosis = postmenopausal women with osteoporosis
P: back-pain = adults with chronic low back pain
I: paracetamol | | acetaminophen | placebo
I: ibuprofen | | | placebo
I: glucosamine sulphate | | glucosamine | placebo | knee-oa
I: chondroitin sulphate | | chondroitin | placebo | knee-oa
I: physiotherapy | | exercise-based physiotherapy | usual care
I: tramadol | | | placebo
I: platelet-rich plasma injection | PRP | | saline injection | knee-oa
I: intra-articular hyaluronic acid | | hyaluronan | saline injection | knee-oa
I: intra-articular corticosteroid injection | | steroid injection | saline injection | knee-oa
I: alendronate | | alendronic acid | placebo | osteoporosis
I: yoga | | | education booklet | back-pain
I: spinal manipulation | SMT | spinal manipulative therapy | sham manipulation | back-pain
I: arthroscopic partial meniscectomy | APM | knee arthroscopy | sham surgery | knee-oa
I: teriparatide | | | placebo | osteoporosis
O: pain intensity | | pain scores | - | points 1.6
O: physical function | | functional status | + | points 8
O: hip fracture | | | - | event
O: bone mineral density | BMD | | + | % 3
O: falls | | fall rate | - | event
O: Oswestry Disability Index | ODI | disability | - | points 10
O: return to work | | | + | event
O: joint stiffness | | stiffness | - | points 1.5
O: upper gastrointestinal bleeding | | GI bleeding | - | event
O: vertebral fracture | | vertebral fractures | - | event
O: grip strength | | handgrip strength | + | kg 5
O: total knee replacement | TKR | knee replacement surgery | - | event
M: cartilage thickness | | cartilage volume
M: prostaglandin E2 | PGE2 |
M: synovial inflammation | | synovitis
M: C-terminal telopeptide | CTX | bone resorption
M: quadriceps strength | | muscle strength
M: central sensitisation | | pain sensitisation

= maternal and neonatal health
P: at-risk = pregnant women at risk of preterm birth
P: pregnant = healthy pregnant women
P: singleton = women with a singleton pregnancy
p: lbw = low-birthweight infants
p: preterm = preterm infants born before 32 weeks
I: vaginal progesterone | | progesterone | placebo
I: antenatal corticosteroids | ACS | antenatal betamethasone | placebo
I: magnesium sulphate | MgSO4 | | placebo
I: iron supplementation | | oral iron | placebo
I: calcium supplementation | | | placebo
I: folic acid supplementation | | folic acid | placebo
I: kangaroo mother care | KMC | skin-to-skin care | conventional care | lbw
I: delayed cord clamping | DCC | deferred cord clamping | immediate cord clamping | preterm
I: caffeine citrate | | caffeine | placebo | preterm
I: probiotic supplementation | | probiotics | placebo | preterm
I: epidural analgesia | | epidural | opioid analgesia
I: induction of labour | IOL | labour induction | expectant management
I: cervical pessary | | Arabin pessary | expectant management
I: bovine lactoferrin | | lactoferrin | placebo | preterm
O: preterm birth | PTB | | - | event
O: pre-eclampsia | | preeclampsia | - | event
O: neonatal mortality | | neonatal death | - | event
O: birth weight | | | + | g 450
O: respiratory distress syndrome | RDS | | - | event
O: necrotising enterocolitis | NEC | necrotizing enterocolitis | - | event
O: caesarean section | CS | caesarean delivery | - | event
O: maternal anaemia | | | - | event
O: bronchopulmonary dysplasia | BPD | | - | event
O: postpartum haemorrhage | PPH | | - | event
O: late-onset sepsis | | | - | event
O: exclusive breastfeeding | | | + | event
M: surfactant production | | pulmonary surfactant
M: placental perfusion | | uteroplacental blood flow
M: maternal haemoglobin | | haemoglobin levels
M: gut microbial colonisation | | intestinal microbiota
M: cervical length | |
M: prostaglandin synthesis | |

= gastroenterology and hepatology
P: uc = adults with ulcerative colitis
P: cirrhosis = patients with cirrhosis
P: ibs = adults with irritable bowel syndrome
p: dyspepsia = adults with dyspepsia
p: nafld = adults with non-alcoholic fatty liver disease
I: omeprazole | | proton pump inhibitor therapy | placebo | dyspepsia
I: Helicobacter pylori eradication therapy | | H. pylori eradication | placebo | dyspepsia
I: mesalazine | 5-ASA | mesalamine | placebo | uc
I: infliximab | | anti-TNF therapy | placebo | uc
I: ursodeoxycholic acid | UDCA | ursodiol | placebo | nafld
I: lactulose | | | placebo | cirrhosis
I: rifaximin | | | placebo | cirrhosis
I: faecal microbiota transplantation | FMT | fecal microbiota transplantation | sham FMT | uc
I: psyllium fibre supplementation | | psyllium | placebo | ibs
I: peppermint oil | | | placebo | ibs
I: silymarin | | milk thistle extract | placebo | nafld
I: vitamin E | | alpha-tocopherol | placebo | nafld
I: budesonide | | | placebo | uc
I: low-FODMAP diet | | | standard dietary advice | ibs
O: clinical remission | | | + | event
O: endoscopic healing | | mucosal healing | + | event
O: upper gastrointestinal bleeding | | GI bleeding | - | event
O: hepatic encephalopathy | HE | | - | event
O: liver stiffness | | liver fibrosis | - | kPa 3
O: alanine aminotransferase | ALT | | - | U/L 20
O: abdominal pain | | | - | points 1.5
O: clinical relapse | | | - | event
O: colectomy | | | - | event
O: recurrent Clostridioides difficile infection | | recurrence of C. difficile infection | - | event
O: gastric cancer | | | - | event
O: IBS symptom severity | | symptom severity | - | points 60
M: gastric acid secretion | |
M: faecal calprotectin | | calprotectin
M: bile acid pool | | bile acids
M: blood ammonia | | ammonia levels
M: gut microbiota diversity | | microbial diversity
M: hepatic steatosis | | fatty liver

= critical care and surgery
P: surgery = adults undergoing major abdominal surgery
P: ventilated = critically ill adults receiving mechanical ventilation
P: critical = critically ill adults
p: trauma = adults with traumatic haemorrhage
I: tranexamic acid | TXA | | placebo | trauma
I: restrictive transfusion strategy | | restrictive transfusion | liberal transfusion strategy
I: balanced crystalloids | | balanced crystalloid solution | saline
I: early mobilisation | | early mobilization | usual care
I: chlorhexidine oral care | | chlorhexidine mouthwash | placebo | ventilated
I: prone positioning | | prone position | supine positioning | ventilated
I: conservative oxygen therapy | | conservative oxygenation | liberal oxygen therapy | ventilated
I: hydrocortisone | | low-dose hydrocortisone | placebo
I: enhanced recovery after surgery | ERAS | enhanced recovery pathway | conventional care | surgery
I: selective digestive decontamination | SDD | | standard care | ventilated
I: intravenous vitamin C | | high-dose ascorbate | placebo
I: dexmedetomidine | | | propofol | ventilated
I: goal-directed fluid therapy | GDFT | | standard fluid therapy | surgery
I: intraoperative warming | | forced-air warming | standard care | surgery
O: blood loss | | perioperative blood loss | - | mL 250
O: in-hospital mortality | | hospital mortality | - | event
O: acute kidney injury | AKI | | - | event
O: ventilator-associated pneumonia | VAP | | - | event
O: delirium | | postoperative delirium | - | event
O: length of ICU stay | | ICU length of stay | - | days 3
O: surgical site infection | SSI | wound infection | - | event
O: thromboembolic events | | thrombosis | - | event
O: ventilator-free days | | | + | days 6
O: postoperative complications | | | - | event
O: red-cell transfusion | | blood transfusion | - | event
O: postoperative ileus | | ileus | - | event
M: fibrinolytic activity | | fibrinolysis
M: tissue oxygenation | |
M: serum cortisol | |
M: systemic inflammatory response | | systemic inflammation
M: endothelial glycocalyx integrity | | glycocalyx
M: sedation depth | | depth of sedation
"""


@dataclass(frozen=True, slots=True)
class Term:
    """A simulated entity with the surface forms an abstract may use for it."""

    name: str
    abbreviation: str | None = None
    synonyms: tuple[str, ...] = ()
    desired: int = 0          # outcomes: +1 when higher is better, -1 when lower is
    unit: str | None = None   # outcomes: the measurement unit; None for an event rate
    scale: float = 1.0        # outcomes: the measurement's typical standard deviation
    comparator: str = "placebo"  # interventions: the usual control arm
    population: str | None = None  # interventions: where it is studied (None: anywhere)

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.name, *((self.abbreviation,) if self.abbreviation else ()),
                *self.synonyms)

    @property
    def continuous(self) -> bool:
        return self.unit is not None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "abbreviation": self.abbreviation,
                "synonyms": list(self.synonyms)}


@dataclass(frozen=True, slots=True)
class Domain:
    name: str
    populations: tuple[str, ...]
    interventions: tuple[Term, ...]
    outcomes: tuple[Term, ...]
    mechanisms: tuple[Term, ...]


def _parse_vocabulary(text: str) -> tuple[Domain, ...]:
    domains: list[Domain] = []
    parts: dict[str, list[Any]] = {}
    name = ""
    for raw in [*text.strip().splitlines(), "= end"]:
        line = raw.strip()
        if not line:
            continue
        if line.startswith("= "):
            if name:
                domains.append(Domain(name, tuple(parts["P"]), tuple(parts["I"]),
                                      tuple(parts["O"]), tuple(parts["M"])))
            name, parts = line[2:], {"P": [], "I": [], "O": [], "M": []}
            populations: dict[str, str] = {}
            continue
        kind, rest = line.split(":", 1)
        if kind in ("P", "p"):
            key, _, population = rest.partition("=")
            populations[key.strip()] = population.strip()
            if kind == "P":
                parts["P"].append(population.strip())
            continue
        fields = [f.strip() for f in rest.split("|")]
        term = Term(fields[0], fields[1] or None,
                    tuple(s.strip() for s in fields[2].split(";") if s.strip()))
        if kind == "I":
            term = replace(term, comparator=fields[3],
                           population=populations[fields[4]] if len(fields) > 4 else None)
        elif kind == "O":
            unit, _, scale = fields[4].partition(" ")
            term = replace(term, desired=1 if fields[3] == "+" else -1,
                           unit=None if unit == "event" else unit, scale=float(scale or 1.0))
        parts[kind].append(term)
    return tuple(domains)


DOMAINS = _parse_vocabulary(_VOCABULARY)


def _term_index(domains: Sequence[Domain]) -> dict[str, Term]:
    """Canonical name -> term; every surface form must name one term only."""
    terms: dict[str, Term] = {}
    owner: dict[str, str] = {}
    for domain in domains:
        for term in (*domain.interventions, *domain.outcomes, *domain.mechanisms):
            if terms.setdefault(term.name, term) != term:
                raise SimulationError(f"vocabulary: {term.name!r} is defined twice")
            for form in term.forms:
                if owner.setdefault(normalise_name(form), term.name) != term.name:
                    raise SimulationError(f"vocabulary: {form!r} names two entities")
    return terms


TERMS = _term_index(DOMAINS)


# --------------------------------------------------------------------------------------
# Configuration and queries


@dataclass(frozen=True, slots=True)
class SimConfig:
    """The literature model. bias is b; bias_sd lets b vary per query (N(b, sd), clipped);
    rank_gradient is c in g(u) = 1 + c (2u - 1); reports per query are log-normal."""

    bias: float = 0.1
    bias_sd: float = 0.0
    rank_gradient: float = 1.5
    median_reports: float = 11.0
    min_reports: int = 2
    max_reports: int = 40
    background_share: float = 0.1
    mechanism_share: float = 0.3

    def __post_init__(self) -> None:
        if self.rank_gradient < 0:
            raise SimulationError(f"rank gradient must be non-negative, got "
                                  f"{self.rank_gradient}")
        if not 0.0 <= self.bias <= self.max_bias:
            raise SimulationError(
                f"bias must be in [0, {self.max_bias:.3f}] with rank gradient "
                f"{self.rank_gradient} (1/2 + b (1 + c) must stay a probability), "
                f"got {self.bias}")
        if self.bias_sd < 0:
            raise SimulationError(f"bias sd must be non-negative, got {self.bias_sd}")
        if not 1 <= self.min_reports <= self.max_reports:
            raise SimulationError(f"need 1 <= min reports <= max reports, got "
                                  f"{self.min_reports} and {self.max_reports}")
        if self.median_reports <= 0:
            raise SimulationError(f"median reports must be positive, got {self.median_reports}")
        for name in ("background_share", "mechanism_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise SimulationError(f"{name.replace('_', ' ')} must be in [0, 1]")

    @property
    def max_bias(self) -> float:
        """Largest b for which every study's probability 1/2 + b g(u) stays below 1."""
        return 0.5 / (1.0 + self.rank_gradient)


@dataclass(frozen=True, slots=True)
class Mechanism:
    """An intermediate entity v on a two-hop path E1 -> v -> E2, with the two true
    polarities (their product is the query's true polarity)."""

    term: Term
    to_mediator: int
    to_outcome: int


@dataclass(frozen=True, slots=True)
class SimQuery:
    """A query with its ground truth (label, bias, mechanism): the answer side."""

    id: str
    index: int
    split: str
    review: str
    domain: str
    population: str
    intervention: Term
    comparator: str
    outcome: Term
    label: Label
    bias: float
    n_reports: int
    mechanism: Mechanism | None = None

    @property
    def direction(self) -> Polarity:
        return Polarity(self.outcome.desired)

    @property
    def true_polarity(self) -> int:
        """The effect on the outcome: the desired direction, none, or the opposite."""
        return {Label.BENEFICIAL: 1, Label.NO_EFFECT: 0, Label.HARMFUL: -1}[
            self.label] * self.outcome.desired

    def query(self) -> Query:
        """What the agent is asked: no label, bias or mechanism. The entities carry their
        other surface forms as aliases, as MeSH entry terms would for a grounded query."""
        return Query(intervention=Entity.from_name(self.intervention.name, "intervention",
                                                   self.intervention.forms[1:]),
                     outcome=Entity.from_name(self.outcome.name, "outcome",
                                              self.outcome.forms[1:]),
                     comparator=Entity.from_name(self.comparator, "comparator"),
                     direction=self.direction,
                     constraints={"population": self.population})

    def to_json(self) -> dict[str, Any]:
        mechanism = None
        if self.mechanism is not None:
            mechanism = {**self.mechanism.term.to_json(),
                         "intervention_to_mechanism": self.mechanism.to_mediator,
                         "mechanism_to_outcome": self.mechanism.to_outcome}
        return {"id": self.id, "index": self.index, "split": self.split,
                "review": self.review, "domain": self.domain, "population": self.population,
                "intervention": self.intervention.to_json(), "comparator": self.comparator,
                "outcome": self.outcome.to_json(), "direction": self.outcome.desired,
                "label": self.label.value, "bias": self.bias, "n_reports": self.n_reports,
                "mechanism": mechanism}

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> SimQuery:
        """Terms come back from the vocabulary, so the literature can be regenerated."""
        mechanism = None
        if row.get("mechanism"):
            m = row["mechanism"]
            mechanism = Mechanism(_term(m["name"]), int(m["intervention_to_mechanism"]),
                                  int(m["mechanism_to_outcome"]))
        return cls(id=str(row["id"]), index=int(row["index"]), split=str(row["split"]),
                   review=str(row["review"]), domain=str(row["domain"]),
                   population=str(row["population"]),
                   intervention=_term(row["intervention"]["name"]),
                   comparator=str(row["comparator"]), outcome=_term(row["outcome"]["name"]),
                   label=Label(row["label"]), bias=float(row["bias"]),
                   n_reports=int(row["n_reports"]), mechanism=mechanism)


def _term(name: str) -> Term:
    if name not in TERMS:
        raise SimulationError(f"unknown simulated entity {name!r}")
    return TERMS[name]


ANSWER_LABELS = (Label.BENEFICIAL, Label.NO_EFFECT, Label.HARMFUL)
MECHANISM_QUERY_SHARE = 0.7


class World:
    """Hands out queries so that no intervention-outcome pair repeats and the mechanism
    edges shared between queries (same E1 -> v, or v -> E2) keep one true polarity."""

    def __init__(self, seed: int, config: SimConfig | None = None) -> None:
        self.seed = seed
        self.config = config or SimConfig()
        self.rng = random.Random(f"{seed}:world")
        self.queries: list[SimQuery] = []
        self._used: set[tuple[str, str]] = set()
        self._edges: dict[tuple[str, str], int] = {}
        self._reviews = 0
        self._count = 0

    @staticmethod
    def capacity() -> int:
        return sum(len(d.interventions) * len(d.outcomes) for d in DOMAINS)

    def review(self, split: str, labels: Sequence[Label]) -> list[SimQuery]:
        """One review: one intervention in one population, one query per label (fewer if
        the vocabulary runs out of unused outcomes for every intervention)."""
        free = [(domain, intervention, [o for o in domain.outcomes
                                        if (intervention.name, o.name) not in self._used])
                for domain in DOMAINS for intervention in domain.interventions]
        free = [entry for entry in free if entry[2]]
        if not free:
            raise SimulationError(f"the vocabulary holds only {self.capacity()} "
                                  "intervention-outcome pairs")
        domain, intervention, outcomes = self.rng.choices(
            free, weights=[len(entry[2]) for entry in free])[0]
        population = intervention.population or self.rng.choice(domain.populations)
        self._reviews += 1
        review = f"R{self._reviews:04d}"
        made = []
        for label, outcome in zip(labels, self.rng.sample(outcomes, min(len(labels),
                                                                         len(outcomes))),
                                  strict=False):
            self._used.add((intervention.name, outcome.name))
            made.append(self._query(split, review, domain, population, intervention,
                                    outcome, label))
        self.queries.extend(made)
        return made

    def _query(self, split: str, review: str, domain: Domain, population: str,
               intervention: Term, outcome: Term, label: Label) -> SimQuery:
        config = self.config
        bias = config.bias
        if config.bias_sd > 0:
            bias = min(config.max_bias, max(0.0, self.rng.gauss(config.bias, config.bias_sd)))
        size = round(self.rng.lognormvariate(math.log(config.median_reports), 0.6))
        self._count += 1
        index = self._count
        query = SimQuery(id=f"Q{index:04d}", index=index, split=split, review=review,
                         domain=domain.name, population=population, intervention=intervention,
                         comparator=intervention.comparator, outcome=outcome, label=label,
                         bias=bias, n_reports=min(config.max_reports,
                                                  max(config.min_reports, size)))
        truth = query.true_polarity
        if self.rng.random() < MECHANISM_QUERY_SHARE:
            return replace(query, mechanism=self._mechanism(domain, intervention, outcome,
                                                            truth))
        return query

    def _mechanism(self, domain: Domain, intervention: Term, outcome: Term,
                   truth: int) -> Mechanism | None:
        options = list(domain.mechanisms)
        self.rng.shuffle(options)
        for mediator in options:
            first = self._edges.get((intervention.name, mediator.name))
            if first is None:
                first = self.rng.choice((1, -1))
            second = truth * first  # first is +-1, so first * second == truth
            if self._edges.get((mediator.name, outcome.name), second) != second:
                continue
            self._edges[(intervention.name, mediator.name)] = first
            self._edges[(mediator.name, outcome.name)] = second
            return Mechanism(mediator, first, second)
        return None


def make_queries(count: int, seed: int, config: SimConfig | None = None,
                 split: str = "all") -> list[SimQuery]:
    """`count` queries with labels in turn Beneficial, NoEffect, Harmful (in reviews of
    one to four outcomes); the benchmark module builds the paper's splits instead."""
    world = World(seed, config)
    labels = [ANSWER_LABELS[i % 3] for i in range(count)]
    while len(world.queries) < count:
        done = len(world.queries)
        world.review(split, labels[done:done + world.rng.randint(1, 4)])
    return world.queries


# --------------------------------------------------------------------------------------
# What each study found (the answer key) and how the studies are ranked


@dataclass(frozen=True, slots=True)
class StudyKey:
    """The answer key of one simulated abstract; never passed to the extractor.

    `reported` is the polarity the study reports for its topic (head -> tail): +1 the
    tail increased, -1 decreased, 0 no significant effect, None no result (a review).
    """

    pmid: str
    topic: str
    head: str
    tail: str
    kind: str
    rank: int
    sample_size: int
    reported: int | None

    def to_json(self) -> dict[str, Any]:
        return {"pmid": self.pmid, "topic": self.topic, "head": self.head,
                "tail": self.tail, "kind": self.kind, "rank": self.rank,
                "sample_size": self.sample_size, "reported": self.reported}


def report_probabilities(label: Label, bias: float, u: float,
                         gradient: float) -> tuple[float, float]:
    """(P favourable, P unfavourable) for a study at relevance position u in (0, 1).

    Null truth: favourable with 1/2 + b g(u), else null. Real benefit: favourable with
    0.72 + b g(u) (large trials are slightly more conservative). Real harm: large
    trials detect it (0.65 falling to 0.35), and bias adds spurious favourable reports.
    """
    g = 1.0 + gradient * (2.0 * u - 1.0)
    if label is Label.NO_EFFECT:
        return 0.5 + bias * g, 0.0
    if label is Label.BENEFICIAL:
        return min(0.97, max(0.03, 0.72 + bias * g)), 0.0
    harm = 0.65 - 0.3 * u
    return min(1.0 - harm, max(0.0, bias * g)), harm


@dataclass(frozen=True, slots=True)
class Study:
    """A planned study: its answer key, year, and the mechanism result it mentions."""

    key: StudyKey
    year: int
    mechanism: tuple[Term, int] | None = None


def plan_query(query: SimQuery, seed: int, config: SimConfig) -> list[Study]:
    """The ranked studies of a query: trials and cohorts sorted by size (largest first,
    as relevance ranking tends to put them), with a few narrative reviews mixed in."""
    rng = random.Random(f"{seed}:{query.id}")
    sizes = sorted((round(math.exp(rng.uniform(math.log(40), math.log(4000))))
                    for _ in range(query.n_reports)), reverse=True)
    reports: list[tuple[str, int, int | None, tuple[Term, int] | None]] = []
    for i, size in enumerate(sizes):
        favourable, unfavourable = report_probabilities(
            query.label, query.bias, (i + 0.5) / len(sizes), config.rank_gradient)
        draw = rng.random()
        verdict = 1 if draw < favourable else -1 if draw < favourable + unfavourable else 0
        kind = "trial" if size >= 300 or rng.random() < 0.7 else "cohort"
        mechanism = None
        if query.mechanism is not None and rng.random() < config.mechanism_share:
            seen = query.mechanism.to_mediator if rng.random() < 0.85 else 0
            mechanism = (query.mechanism.term, seen)
        reports.append((kind, size, verdict * query.outcome.desired, mechanism))
    for _ in range(sum(rng.random() < config.background_share for _ in sizes)):
        reports.insert(rng.randint(1, len(reports)), ("review", 0, None, None))
    return [Study(StudyKey(pmid=f"9{query.index:05d}{rank:03d}", topic=query.id,
                            head=query.intervention.name, tail=query.outcome.name,
                            kind=kind, rank=rank, sample_size=size, reported=reported),
                   rng.randint(2010, 2025), mechanism)
            for rank, (kind, size, reported, mechanism) in enumerate(reports)]


def plan_edge(head: Term, tail: Term, polarity: int, index: int, seed: int) -> list[Study]:
    """Mechanistic literature for one world edge (E1 -> v trials, v -> E2 cohorts):
    small, unbiased studies that see the true polarity 80% of the time."""
    rng = random.Random(f"{seed}:edge:{head.name}:{tail.name}")
    kind = "association" if tail.desired else "mechanism"
    studies = []
    for rank in range(rng.randint(2, 6)):
        if polarity != 0:
            seen = polarity if rng.random() < 0.8 else 0
        else:
            seen = 0 if rng.random() < 0.8 else rng.choice((1, -1))
        size = round(math.exp(rng.uniform(math.log(30), math.log(3000 if kind == "association"
                                                                else 300))))
        studies.append(Study(StudyKey(pmid=f"8{index:05d}{rank:03d}", topic=f"E{index:05d}",
                                       head=head.name, tail=tail.name, kind=kind, rank=rank,
                                       sample_size=size, reported=seen),
                              rng.randint(2010, 2025)))
    return studies


# --------------------------------------------------------------------------------------
# Text


_VERBS: dict[int, dict[str, tuple[str, ...]]] = {
    -1: {"past": ("reduced", "lowered", "decreased"), "bare": ("reduce", "lower"),
         "3sg": ("reduces", "lowers"), "ing": ("reducing", "lowering")},
    1: {"past": ("increased", "raised"), "bare": ("increase", "raise"),
        "3sg": ("increases", "raises"), "ing": ("increasing", "raising")},
}
_IMPROVES = {"past": "improved", "bare": "improve", "3sg": "improves", "ing": "improving"}
_MEASURES = {"HR": "hazard ratio", "RR": "risk ratio", "OR": "odds ratio",
             "MD": "mean difference", "SMD": "standardised mean difference"}
_ADVERSE = ("nausea", "headache", "dizziness", "diarrhoea", "fatigue", "rash", "constipation",
            "insomnia", "injection-site reactions", "upper respiratory tract infection")
_PLACEHOLDER = re.compile("\x00([^\x00]+)\x00")
_ABBREVIATIONS = tuple(sorted({t.abbreviation for t in TERMS.values() if t.abbreviation}))
_DURATIONS = ("12 weeks", "24 weeks", "6 months", "1 year", "2 years")
_ACRONYMS = ("ASPIRE", "PROTECT", "HORIZON", "CLARITY", "PRIME", "BEACON", "VANTAGE",
             "COMPASS", "ANCHOR", "FOCUS", "SUMMIT", "MERIDIAN", "ORBIT", "KESTREL")


@dataclass(frozen=True, slots=True)
class _Effect:
    measure: str
    estimate: float
    low: float
    high: float
    p: float
    treated: float
    control: float


def _effect(rng: random.Random, change: int, size: int, outcome: Term | None,
            ratio: str | None = None) -> _Effect:
    """Numbers consistent with the reported change: |z| >= 2.05 for a finding,
    0.05 <= |z| <= 1.7 for a null (0.08 < P < 0.97), CI = estimate +- 1.96 SE. The SE
    shrinks with the sample size, but no effect exceeds a plausible size (ratio e, 0.8 SD)."""
    sign = change or rng.choice((1, -1))
    z = sign * (rng.uniform(2.05, 5.0) if change else rng.uniform(0.05, 1.7))
    p = math.erfc(abs(z) / math.sqrt(2.0))
    if outcome is not None and not outcome.continuous:
        control = rng.uniform(0.06, 0.35)
        se = min(math.sqrt(4.0 / (size * control)), 1.0 / max(abs(z), 1.0))
        log_ratio = z * se
        measure = ratio or rng.choice(("HR", "RR", "OR") if outcome.desired < 0 else
                                      ("RR", "OR"))
        return _Effect(measure, math.exp(log_ratio), math.exp(log_ratio - 1.96 * se),
                       math.exp(log_ratio + 1.96 * se), p,
                       100 * min(0.95, control * math.exp(log_ratio)), 100 * control)
    scale = outcome.scale if outcome is not None else 1.0
    se = scale * min(2.0 / math.sqrt(size), 0.8 / max(abs(z), 1.0))
    estimate = z * se
    control = rng.uniform(-0.3, 0.3) * scale
    return _Effect("MD" if outcome is not None else "SMD", estimate, estimate - 1.96 * se,
                   estimate + 1.96 * se, p, control + estimate, control)


def _decimals(scale: float) -> int:
    return 0 if scale >= 100 else 1 if scale >= 5 else 2


class _Writer:
    """Wording for one abstract: a surface form per entity, abbreviations defined at
    first use, one statistics style throughout."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._forms: dict[str, str] = {}
        self._defined: set[str] = set()
        self._style = rng.randrange(3)
        self._minus = "−" if rng.random() < 0.3 else "-"

    def choice(self, options: Sequence[str]) -> str:
        return self.rng.choice(options)

    def form(self, term: Term) -> str:
        """The name this abstract uses for the entity (canonical more often than not)."""
        if term.name not in self._forms:
            use_synonym = term.synonyms and self.rng.random() < 0.35
            self._forms[term.name] = (self.rng.choice(term.synonyms) if use_synonym
                                      else term.name)
        return self._forms[term.name]

    def say(self, term: Term) -> str:
        """The entity in running text. Abbreviated entities become a placeholder that
        `finish` resolves in reading order: "name (ABBR)" the first time, mostly ABBR
        after (sentences are built before one of them is chosen, so this cannot be
        decided here)."""
        form = self.form(term)
        if not term.abbreviation or form != term.name or term.abbreviation in form:
            return form
        return f"\x00{term.name}\x00"

    def finish(self, sentence: str) -> str:
        def mention(match: re.Match[str]) -> str:
            term = TERMS[match[1]]
            if term.name not in self._defined:
                self._defined.add(term.name)
                return f"{term.name} ({term.abbreviation})"
            return str(term.abbreviation) if self.rng.random() < 0.75 else term.name

        return _cap(_PLACEHOLDER.sub(mention, sentence))

    def join(self, sections: Sequence[tuple[str, Sequence[str]]]) -> str:
        """A structured abstract (LABEL: text, one section per line) or one paragraph."""
        if self.rng.random() < 0.6:
            return "\n".join(f"{label}: {' '.join(self.finish(s) for s in body)}"
                             for label, body in sections if body)
        return " ".join(self.finish(s) for _, body in sections for s in body)

    def verb(self, change: int, tense: str, desired: int = 0) -> str:
        options = _VERBS[change][tense]
        if change == desired == 1:
            options = (*options, _IMPROVES[tense])
        return self.rng.choice(options)

    def outcome(self, term: Term) -> str:
        """An outcome as a noun phrase: rates and risks for events, the measure itself
        for continuous outcomes."""
        name = self.say(term)
        if term.continuous:
            return name
        if term.desired > 0:
            return self.choice((f"the rate of {name}", name))
        return self.choice((f"the risk of {name}", f"the incidence of {name}"))

    def number(self, value: float, decimals: int) -> str:
        text = f"{value:.{decimals}f}"
        return text.replace("-", self._minus) if text.startswith("-") else text

    def p_value(self, p: float) -> str:
        if p < 0.001:
            return ("P < 0.001", "P<0.001", "p < .001")[self._style]
        digits = f"{p:.3f}" if p < 0.1 else f"{p:.2f}"
        return (f"P = {digits}", f"P={digits}", f"p = {digits[1:]}")[self._style]

    def stats(self, effect: _Effect, unit: str | None, scale: float = 1.0) -> str:
        """"HR 0.78, 95% CI 0.66 to 0.92; P = 0.004" in one of three house styles."""
        measure = effect.measure
        if measure not in self._defined:
            self._defined.add(measure)
            label = f"{_MEASURES[measure]} [{measure}]" if self._style != 2 else measure
        else:
            label = measure
        decimals = 2 if measure in ("HR", "RR", "OR", "SMD") else _decimals(scale)
        est, low, high = (self.number(v, decimals)
                          for v in (effect.estimate, effect.low, effect.high))
        if unit and measure == "MD":
            suffix = "%" if unit == "%" else f" {unit}"
            est = est + suffix
        ci = f"{low} to {high}" if low.startswith(("-", "−")) or self._style == 0 else (
            f"{low}-{high}" if self._style == 1 else f"{low}–{high}")
        if self._style == 0:
            return f"{label} {est}, 95% CI {ci}; {self.p_value(effect.p)}"
        if self._style == 1:
            return f"{label} {est}; 95% CI {ci}; {self.p_value(effect.p)}"
        return f"{label} = {est}; 95% CI: {ci}; {self.p_value(effect.p)}"


def _cap(sentence: str) -> str:
    """Capitalise a sentence unless it starts with an abbreviation (rTMS, n-3 PUFA)."""
    if sentence[:1].islower() and not sentence.startswith(_ABBREVIATIONS):
        return sentence[0].upper() + sentence[1:]
    return sentence


def _mesh(*names: str, extra: Sequence[str] = ()) -> tuple[str, ...]:
    headings = ["Humans", *(n[0].upper() + n[1:] for n in names), *extra]
    return tuple(dict.fromkeys(headings))


def _effect_sentence(w: _Writer, intervention: Term, comparator: str, outcome: Term,
                     change: int, size: int, cohort: bool) -> str:
    """The primary result, worded the many ways abstracts word it."""
    effect = _effect(w.rng, change, size, outcome, "HR" if cohort else None)
    stats = w.stats(effect, outcome.unit, outcome.scale)
    i, o = w.say(intervention), w.outcome(outcome)
    rates = ""
    if not outcome.continuous:
        rates = f"{effect.treated:.1f}% vs {effect.control:.1f}%; "
    if cohort:
        if change == 0:
            return w.choice((f"{i} was not associated with {w.say(outcome)} (adjusted {stats}).",
                             f"After adjustment for confounders, there was no significant "
                             f"association between {i} and {w.say(outcome)} ({stats})."))
        return w.choice((f"{i} was associated with {_association(w, outcome, change)} "
                         f"(adjusted {stats}).",
                         f"Compared with patients not receiving it, those receiving {i} had "
                         f"{_association(w, outcome, change)} ({stats})."))
    c = comparator
    if change == 0:
        trend = "lower" if effect.estimate < (1.0 if effect.measure in ("HR", "RR", "OR")
                                              else 0.0) else "higher"
        return w.choice((
            f"There was no significant difference in {o} between the {i} and {c} groups "
            f"({rates}{stats}).",
            f"{i} did not significantly {w.verb(outcome.desired, 'bare')} {o} compared with "
            f"{c} ({rates}{stats}).",
            f"{w.say(outcome)} was similar in the two groups ({rates}{stats}).",
            f"Although {w.say(outcome)} was numerically {trend} with {i}, the difference "
            f"did not reach statistical significance ({stats}).",
            f"We found no evidence that {i} affected {o} ({stats}).",
        ))
    comparative = "lower" if change < 0 else "higher"
    noun = "reduction" if change < 0 else "increase"
    options = [
        f"{i} {w.verb(change, 'past', outcome.desired)} {o} compared with {c} "
        f"({rates}{stats}).",
        f"Compared with {c}, {i} significantly {w.verb(change, 'past', outcome.desired)} "
        f"{o} ({stats}).",
        f"Treatment with {i} resulted in a significant {noun} in {w.say(outcome)} "
        f"({stats}).",
        f"{w.say(outcome)} was significantly {comparative} in the {i} group than in the "
        f"{c} group ({rates}{stats}).",
    ]
    if outcome.continuous:
        unit = "%" if outcome.unit == "%" else f" {outcome.unit}"
        digits = _decimals(outcome.scale)
        options.append(
            f"{w.say(outcome)} changed by {w.number(effect.treated, digits)}{unit} with {i} "
            f"and by {w.number(effect.control, digits)}{unit} with {c} ({stats}), a "
            f"significant {noun}.")
    return w.choice(options)


def _association(w: _Writer, outcome: Term, change: int) -> str:
    """"a lower risk of X" for events, "higher X" for measurements."""
    comparative = "lower" if change < 0 else "higher"
    if outcome.continuous:
        return f"{comparative} {w.say(outcome)}"
    return f"a {comparative} risk of {w.say(outcome)}"


def _conclusion(w: _Writer, intervention: Term, comparator: str, outcome: Term, change: int,
                population: str, cohort: bool) -> str:
    i, o = w.say(intervention), w.outcome(outcome)
    if cohort:
        if change == 0:
            return f"In {population}, {i} was not associated with {w.say(outcome)}."
        return w.choice((f"In {population}, {i} was associated with "
                         f"{_association(w, outcome, change)}.",
                         f"{i} may be associated with {_association(w, outcome, change)} in "
                         f"{population}; randomised trials are needed to confirm this."))
    if change == 0:
        bare = w.verb(outcome.desired, "bare")
        return w.choice((
            f"{i} did not {bare} {o} in {population}.",
            f"In {population}, {i} had no significant effect on {w.say(outcome)}, although "
            f"a modest benefit cannot be excluded.",
            f"These results do not support the use of {i} to {bare} {o} in {population}; "
            f"larger trials are needed.",
            f"{i} and {comparator} resulted in similar "
            f"{w.say(outcome) if outcome.continuous else 'rates of ' + w.say(outcome)}.",
        ))
    if change == outcome.desired:
        return w.choice((
            f"In {population}, {i} {w.verb(change, 'past', outcome.desired)} {o} compared "
            f"with {comparator}.",
            f"These findings suggest that {i} {w.verb(change, '3sg', outcome.desired)} {o} "
            f"in {population}.",
            f"{i} is an effective option for {w.verb(change, 'ing', outcome.desired)} "
            f"{w.say(outcome)} in {population}.",
        ))
    return w.choice((
        f"{i} {w.verb(change, 'past')} {o} in {population}, and its use warrants caution.",
        f"These data indicate that {i} may {w.verb(change, 'bare')} {o}; clinicians should "
        f"weigh this risk.",
    ))


def render_direct(study: Study, query: SimQuery, rng: random.Random,
                  avoid: str = "") -> Abstract:
    """A trial or cohort on the query's question, with a mechanism sentence sometimes.
    `avoid` names an outcome the secondary results must not mention (an off-target study
    of another outcome must say nothing about the query's)."""
    w = _Writer(rng)
    key, intervention, outcome = study.key, query.intervention, query.outcome
    comparator, population = query.comparator, query.population
    change = key.reported or 0
    cohort = key.kind == "cohort"
    name, out = w.form(intervention), w.form(outcome)
    if cohort:
        risk = out if outcome.continuous else f"risk of {out}"
        title = _cap(w.choice((f"{name} and {risk} in {population}: a prospective cohort study",
                               f"Association of {name} with {out} among {population}")))
    else:
        design = w.choice(("a randomised controlled trial", "a randomized clinical trial",
                           "a multicentre randomised trial"))
        titles = [f"Effect of {name} on {out} in {population}: {design}",
                  f"{name} versus {comparator} in {population}: {design}",
                  f"{name} for {population} ({w.choice(_ACRONYMS)}): {design}"]
        if change == outcome.desired:
            titles.append(f"{name} {w.verb(change, '3sg', outcome.desired)} {out} in "
                          f"{population}: {design}")
        elif change == 0:
            titles.append(f"{name} does not {w.verb(outcome.desired, 'bare')} {out} in "
                          f"{population}: {design}")
        title = _cap(w.choice(titles))
    background = [w.choice((
        f"{w.say(outcome)} remains an important clinical problem in {population}.",
        f"Whether {w.say(intervention)} {w.verb(outcome.desired, '3sg')} {w.outcome(outcome)} "
        f"in {population} is uncertain.",
        f"Previous studies of {w.say(intervention)} have reported conflicting effects on "
        f"{w.say(outcome)}."))]
    if query.mechanism is not None and rng.random() < 0.3:
        background.append(f"{w.say(intervention)} is thought to act partly through "
                          f"{w.say(query.mechanism.term)}, but its clinical benefit is "
                          f"not established.")
    background.append(w.choice((
        f"We assessed the effect of {w.say(intervention)} on {w.say(outcome)}.",
        f"This study aimed to determine whether {w.say(intervention)} "
        f"{w.verb(outcome.desired, '3sg')} {w.outcome(outcome)}.")))
    others = [o for o in _domain(query.domain).outcomes if o.name not in (outcome.name, avoid)]
    distractors = rng.sample(others, 2)
    if cohort:
        methods = [f"We analysed {key.sample_size:,} {population} enrolled in a prospective "
                   f"cohort and followed for a median of {rng.randint(2, 9)} years.",
                   f"Cox models adjusted for age, sex and comorbidity estimated the "
                   f"association between {w.say(intervention)} and {w.say(outcome)}."]
    else:
        blinded = "double-blind, " if comparator == "placebo" else ""
        control = ", placebo-controlled" if comparator == "placebo" else ""
        centres = "multicentre, " if key.sample_size >= 1000 else ""
        methods = [f"In this {centres}{blinded}randomised{control} trial, we assigned "
                   f"{key.sample_size:,} {population} to {w.say(intervention)} or "
                   f"{comparator} {_duration(population, rng)}.",
                   f"The primary outcome was {w.say(outcome)}; secondary outcomes included "
                   f"{w.say(distractors[0])} and {w.say(distractors[1])}."]
    results = [_effect_sentence(w, intervention, comparator, outcome, change,
                                key.sample_size, cohort)]
    if study.mechanism is not None:
        mediator, seen = study.mechanism
        results.append(_mechanism_sentence(w, intervention, mediator, seen,
                                           key.sample_size))
    if not cohort:
        results.append(_secondary_sentence(w, intervention, distractors, key.sample_size))
        results.append(w.choice((
            f"Adverse events were reported in {rng.randint(8, 40)}% and "
            f"{rng.randint(8, 40)}% of participants, respectively.",
            f"The most frequent adverse events were {w.choice(_ADVERSE[:5])} and "
            f"{w.choice(_ADVERSE[5:])}.",
            "No serious adverse events were attributed to the study treatment.")))
    conclusions = [_conclusion(w, intervention, comparator, outcome, change, population,
                               cohort)]
    if not cohort and rng.random() < 0.3:
        conclusions.append(
            f"Trial registration: ClinicalTrials.gov NCT0{rng.randint(1000000, 6999999)}.")
    labels = rng.choice((("BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"),
                       ("OBJECTIVE", "METHODS", "RESULTS", "CONCLUSION"),
                       ("INTRODUCTION", "METHODS", "FINDINGS", "INTERPRETATION")))
    text = w.join(list(zip(labels, (background, methods, results, conclusions), strict=True)))
    types = (("Journal Article", "Observational Study") if cohort else
             ("Journal Article", "Randomized Controlled Trial",
              *(("Multicenter Study",) if key.sample_size >= 1000 else ())))
    extra = ("Prospective Studies",) if cohort else ("Treatment Outcome",)
    return Abstract(pmid=key.pmid, title=title + ".", text=text, year=study.year,
                    publication_types=types,
                    mesh=_mesh(intervention.name, outcome.name, extra=extra))


def _mechanism_sentence(w: _Writer, intervention: Term, mediator: Term, seen: int,
                        size: int) -> str:
    effect = _effect(w.rng, seen, size, None)
    stats = w.stats(effect, None)
    i, v = w.say(intervention), w.say(mediator)
    if seen == 0:
        return w.choice((f"{v} did not change significantly with {i} ({stats}).",
                         f"{i} had no measurable effect on {v} ({stats})."))
    return w.choice((f"{i} also {w.verb(seen, 'past')} {v} ({stats}).",
                     f"In exploratory analyses, {v} {'fell' if seen < 0 else 'rose'} "
                     f"significantly in the {i} group ({stats})."))


def _secondary_sentence(w: _Writer, intervention: Term, distractors: Sequence[Term],
                        size: int) -> str:
    """Results for other outcomes: a distractor the extractor must not take for the query."""
    first, second = distractors
    draw = w.rng.random()
    if draw < 0.6:
        return w.choice((f"Secondary outcomes, including {w.say(first)} and "
                         f"{w.say(second)}, did not differ between groups.",
                         f"No significant between-group differences were observed for "
                         f"{w.say(first)} or {w.say(second)}."))
    change = first.desired if draw < 0.9 else -first.desired
    effect = _effect(w.rng, change, size, first)
    return (f"{w.say(intervention)} {w.verb(change, 'past', first.desired)} "
            f"{w.outcome(first)} ({w.stats(effect, first.unit, first.scale)}).")


def render_review(study: Study, query: SimQuery, rng: random.Random) -> Abstract:
    """A narrative review: relevant words, no result to extract."""
    w = _Writer(rng)
    intervention, outcome = query.intervention, query.outcome
    title = _cap(w.choice((f"{w.form(intervention)} in {query.population}: a narrative review",
                           f"The role of {w.form(intervention)} in {query.population}: current "
                           f"evidence and future directions")))
    mechanism = (f", including effects on {w.say(query.mechanism.term)}"
                 if query.mechanism is not None else "")
    sentences = [
        f"{w.say(intervention)} has been studied in {query.population} for more than a "
        f"decade.",
        f"This review summarises its proposed mechanisms{mechanism}, and the clinical "
        f"outcomes reported so far, such as {w.say(outcome)}.",
        f"We searched MEDLINE and Embase for studies published up to {study.year - 1}.",
        "The available studies differ in design, dose and duration, which limits direct "
        "comparison.",
        f"Adequately powered trials are needed to define the place of {w.say(intervention)} "
        f"in clinical practice.",
    ]
    return Abstract(pmid=study.key.pmid, title=title + ".",
                    text=" ".join(w.finish(s) for s in sentences), year=study.year,
                    publication_types=("Journal Article", "Review"),
                    mesh=_mesh(intervention.name, outcome.name))


def _render_edge(study: Study, head: Term, tail: Term, comparator: str, population: str,
                 rng: random.Random) -> Abstract:
    """A mechanistic trial (intervention -> mediator) or a cohort (mediator -> outcome)."""
    w = _Writer(rng)
    key, change = study.key, study.key.reported or 0
    h, t = w.form(head), w.form(tail)
    if key.kind == "mechanism":
        title = _cap(f"Effect of {h} on {t} in {population}: a randomised pilot trial.")
        background = f"{w.say(tail)} has been implicated in disease progression in {population}."
        methods = (f"We randomly assigned {key.sample_size} {population} to {w.say(head)} or "
                   f"{comparator} for {rng.randint(4, 16)} weeks and measured {w.say(tail)} "
                   f"at baseline and at the end of treatment.")
        effect = _effect(rng, change, key.sample_size, None)
        if change:
            result = (f"{w.say(head)} {w.verb(change, 'past')} {w.say(tail)} compared with "
                      f"{comparator} ({w.stats(effect, None)}).")
            conclusion = (f"{w.say(head)} {w.verb(change, '3sg')} {w.say(tail)}, which may "
                          f"contribute to its clinical effects.")
        else:
            result = (f"{w.say(tail)} did not differ significantly between groups "
                      f"({w.stats(effect, None)}).")
            conclusion = f"{w.say(head)} had no measurable effect on {w.say(tail)}."
        types = ("Journal Article", "Randomized Controlled Trial")
    else:
        title = _cap(w.choice((f"{h} and {t} in {population}: a prospective cohort study.",
                               f"Association between {h} and {t} in {population}.")))
        background = f"The relation between {w.say(head)} and {w.say(tail)} is unclear."
        methods = (f"We measured {w.say(head)} in {key.sample_size:,} {population} and "
                   f"followed them for a median of {rng.randint(2, 8)} years.")
        effect = _effect(rng, change, key.sample_size, tail, "HR")
        stats = w.stats(effect, tail.unit, tail.scale)
        if change == 0:
            result = (f"{w.say(head)} was not associated with {w.say(tail)} after adjustment "
                      f"for potential confounders ({stats}).")
            conclusion = (f"{w.say(head)} does not appear to predict {w.say(tail)} in "
                          f"{population}.")
        else:
            result = (f"Higher {w.say(head)} was associated with "
                      f"{_association(w, tail, change)} ({stats}, per standard deviation).")
            conclusion = (f"Higher {w.say(head)} predicts {_association(w, tail, change)} in "
                          f"{population}.")
        types = ("Journal Article", "Observational Study")
    sections = [("BACKGROUND", [background]), ("METHODS", [methods]), ("RESULTS", [result]),
                ("CONCLUSIONS", [conclusion])]
    return Abstract(pmid=key.pmid, title=title, text=w.join(sections), year=study.year,
                    publication_types=types, mesh=_mesh(head.name, tail.name))


def _duration(population: str, rng: random.Random) -> str:
    """How long the arms were followed; pregnancy and neonatal trials end at birth or
    discharge rather than after a fixed time."""
    choice = rng.choice(_DURATIONS)
    if "pregnan" in population or "preterm birth" in population:
        return rng.choice(("from 16 weeks' gestation until delivery",
                           "from enrolment until delivery"))
    if "infants" in population:
        return "until discharge from the neonatal unit"
    return f"for {choice}"


def _domain(name: str) -> Domain:
    return next(d for d in DOMAINS if d.name == name)


# --------------------------------------------------------------------------------------
# The simulator as a literature source


@dataclass(frozen=True, slots=True)
class _Topic:
    """What one (head, tail) search returns: a query's studies or a mechanism edge's."""

    id: str
    head: Term
    tail: Term
    polarity: int
    index: int
    population: str
    comparator: str
    query: SimQuery | None = None


class SimulatedLiterature:
    """Serves the queries' literatures behind the same interface as PubMed: a search for
    (intervention, outcome) reads that query's studies in rank order; a search for
    (intervention, mediator) or (mediator, outcome) reads the mechanism literature.
    Entities are recognised by any surface form (name, abbreviation, synonym)."""

    def __init__(self, queries: Sequence[SimQuery], seed: int,
                 config: SimConfig | None = None, batch_size: int = 1) -> None:
        self.seed = seed
        self.config = config or SimConfig()
        self.batch_size = batch_size
        self.queries = tuple(queries)
        self._names = {normalise_name(form): term.name
                       for term in TERMS.values() for form in term.forms}
        self._topics: dict[tuple[str, str], _Topic] = {}
        self._by_id: dict[str, _Topic] = {}
        self._cache: dict[str, list[tuple[Abstract, StudyKey]]] = {}
        for q in self.queries:
            self._add(q.intervention, q.outcome, q.true_polarity, q.population,
                      q.comparator, q)
        for q in self.queries:
            if q.mechanism is not None:
                self._add(q.intervention, q.mechanism.term, q.mechanism.to_mediator,
                          q.population, q.comparator)
                self._add(q.mechanism.term, q.outcome, q.mechanism.to_outcome, q.population,
                          q.comparator)

    def _add(self, head: Term, tail: Term, polarity: int, population: str, comparator: str,
             query: SimQuery | None = None) -> None:
        key = (head.name, tail.name)
        if key not in self._topics:
            index = len(self._topics) + 1
            topic_id = query.id if query is not None else f"E{index:05d}"
            topic = _Topic(topic_id, head, tail, polarity, index, population, comparator,
                           query)
            self._topics[key] = self._by_id[topic_id] = topic

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> ListCursor:
        constraints = constraints or SearchConstraints()
        head, tail = self._resolve(query.intervention), self._resolve(query.outcome)
        topic = self._topics.get((head or "", tail or ""))
        if topic is None:
            raise EmptyResult(f"no simulated study of {query.intervention.name!r} and "
                              f"{query.outcome.name!r}")
        ranked = [abstract for abstract, _ in self.literature(topic.id)
                  if constraints.admits_year(abstract.year)
                  and constraints.admits_types(abstract.publication_types)]
        if not ranked:
            raise EmptyResult(f"no simulated study of {query.intervention.name!r} and "
                              f"{query.outcome.name!r} within the constraints")
        return ListCursor(ranked[:constraints.max_results],
                          constraints.batch_size or self.batch_size)

    def _resolve(self, entity: Entity) -> str | None:
        return self._names.get(normalise_name(entity.name)) or self._names.get(entity.id)

    @property
    def topic_ids(self) -> list[str]:
        return list(self._by_id)

    def literature(self, topic_id: str) -> list[tuple[Abstract, StudyKey]]:
        """A topic's abstracts with their answer keys, generated on first use."""
        if topic_id not in self._cache:
            self._cache[topic_id] = list(self._generate(self._by_id[topic_id]))
        return self._cache[topic_id]

    def answer_key(self, query_id: str) -> list[StudyKey]:
        return [key for _, key in self.literature(query_id)]

    def _generate(self, topic: _Topic) -> Iterable[tuple[Abstract, StudyKey]]:
        if topic.query is not None:
            for study in plan_query(topic.query, self.seed, self.config):
                rng = random.Random(f"{self.seed}:text:{study.key.pmid}")
                render = render_review if study.key.kind == "review" else render_direct
                yield render(study, topic.query, rng), study.key
            return
        for study in plan_edge(topic.head, topic.tail, topic.polarity, topic.index, self.seed):
            rng = random.Random(f"{self.seed}:text:{study.key.pmid}")
            yield (_render_edge(study, topic.head, topic.tail, topic.comparator,
                                topic.population, rng), study.key)
