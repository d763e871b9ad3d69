"""Other names of a term: the two names of one outcome a review and a trial use ('preterm
birth' / 'delivery before 37 weeks'), and the short forms abstracts use undefined ('CRP').
mentions.py looks for an entity under each."""

from __future__ import annotations

import functools
import re

# Two names of one outcome, a review's and a trial's ('adverse effects' / 'side effects'),
# each way round: an outcome named by one is also looked for by the other.
SAME_OUTCOME_PHRASES = tuple((a, b) for one, other in (
    ("adverse effects", "side effects"),
    ("adverse events", "side effects"),
    ("serious adverse events", "severe side effects"),
    ("epinephrine", "adrenaline"),
    ("norepinephrine", "noradrenaline"),
    ("myocardial infarction", "heart attack"),
    ("alopecia", "hair loss"),
    ("hypertension", "high blood pressure"),
    ("operative time", "duration of surgery"),
    ("operative time", "operating time"),
    ("cerebrovascular accident", "stroke"),
    ("satiety", "fullness"),
    # a review's name for what trials report in their own words
    ("preterm birth", "delivery before 37 weeks"),
    ("preterm birth", "birth before 37 weeks"),
    ("preterm birth", "preterm delivery"),
    ("operative time", "skin-to-skin time"),
    ("operative time", "surgical time"),
    ("opioid consumption", "morphine consumption"),
    ("opioid consumption", "morphine use"),
    ("opioid consumption", "morphine requirements"),
    ("tooth staining", "tooth discoloration"),
    ("staining", "discoloration"),
    ("length of hospital stay", "days in hospital"),
    ("length of hospital stay", "hospital stay"),
    ("smoking cessation", "abstinence"),
    ("smoking cessation", "quit rate"),
    # neonatal, obstetric and ward outcomes reviews and trials name differently
    ("bronchopulmonary dysplasia", "chronic lung disease"),
    ("miscarriage", "spontaneous abortion"),
    ("miscarriage", "pregnancy loss"),
    ("surgical site infection", "wound infection"),
    ("pressure ulcers", "pressure sores"),
    ("pressure ulcers", "pressure injuries"),
    ("hospital admission", "hospitalization"),
    ("hospital admission", "hospitalisation"),
    ("dental caries", "tooth decay"),
    ("urinary incontinence", "urinary leakage"),
    ("rescue analgesia", "supplementary analgesia"),
    ("rescue analgesia", "supplemental analgesia"),
    ("rescue analgesia", "additional analgesia"),
    ("withdrawal due to adverse events", "discontinuation due to adverse events"),
    # a stroke review's 'good functional outcome' is a trial's 'favourable outcome'
    ("good functional outcome", "favourable outcome"),
    ("good functional outcome", "favorable outcome"),
    ("good functional outcome", "favourable functional outcome"),
    ("good functional outcome", "favorable functional outcome"),
) for a, b in ((one, other), (other, one)))

# Words an outcome's name may open with that say which way it went ('decreased appetite',
# an adverse event); a trial may write any of its group ('Reduced appetite was reported').
CHANGE_WORDS = (("decreased", "reduced", "diminished", "lowered"),
                ("increased", "elevated", "raised"))

# Abbreviations common enough that abstracts use them undefined, with the long forms a
# review writes out ('postoperative C-reactive protein levels' is 'CRP levels' in the
# text), and that reviews use for what an abstract spells out ('LVEF'); one short form may
# stand for more than one wording. Not ambiguous ones ('HR': heart rate or hazard ratio;
# 'PE'; 'BPD').
COMMON_ABBREVIATIONS = (
    ("CRP", "C-reactive protein"), ("BMI", "body mass index"), ("BP", "blood pressure"),
    ("HbA1c", "glycated hemoglobin"), ("HbA1c", "glycosylated hemoglobin"),
    ("HbA1C", "glycated hemoglobin"), ("A1C", "glycated hemoglobin"), ("LBW", "low birth weight"),
    ("SBP", "systolic blood pressure"),
    ("DBP", "diastolic blood pressure"), ("QoL", "quality of life"), ("QOL", "quality of life"),
    ("LDL", "low-density lipoprotein"), ("HDL", "high-density lipoprotein"),
    ("HRQoL", "health-related quality of life"),
    ("HRQOL", "health-related quality of life"), ("ICU", "intensive care unit"),
    ("LOS", "length of stay"), ("OS", "overall survival"), ("VAS", "visual analogue scale"),
    ("PONV", "postoperative nausea and vomiting"),
    ("PFS", "progression-free survival"), ("eGFR", "estimated glomerular filtration rate"),
    ("UTI", "urinary tract infection"), ("DVT", "deep vein thrombosis"),
    ("VTE", "venous thromboembolism"), ("MI", "myocardial infarction"),
    ("NEC", "necrotizing enterocolitis"), ("ROP", "retinopathy of prematurity"),
    ("SSI", "surgical site infection"), ("PPH", "postpartum hemorrhage"),
    ("IOP", "intraocular pressure"),
    ("VAP", "ventilator-associated pneumonia"),
    ("LVEF", "left ventricular ejection fraction"), ("PaO2", "arterial oxygen tension"),
    ("PaO2", "arterial partial pressure of oxygen"),
    ("PaCO2", "arterial partial pressure of carbon dioxide"), ("FVC", "forced vital capacity"),
    ("FEV1", "forced expiratory volume in 1 second"),
    ("FEV1", "forced expiratory volume in one second"),
    ("PEF", "peak expiratory flow"), ("PEFR", "peak expiratory flow rate"), ("TG", "triglycerides"),
    ("MAP", "mean arterial pressure"),
    ("CVP", "central venous pressure"), ("ARDS", "acute respiratory distress syndrome"),
    ("AKI", "acute kidney injury"), ("MACE", "major adverse cardiovascular events"),
    ("SAEs", "serious adverse events"),
    ("AEs", "adverse events"), ("TC", "total cholesterol"), ("FPG", "fasting plasma glucose"),
    ("ALT", "alanine aminotransferase"),
    ("AST", "aspartate aminotransferase"), ("WBC", "white blood cell count"),
    ("GCS", "Glasgow Coma Scale"), ("mRS", "modified Rankin Scale"), ("HCO3", "bicarbonate"),
    ("MMSE", "Mini-Mental State Examination"),
    ("ODI", "Oswestry Disability Index"), ("6MWD", "six-minute walk distance"),
    ("6MWD", "6-minute walk distance"),
    ("SGA", "small for gestational age"), ("IVH", "intraventricular hemorrhage"),
    ("PDA", "patent ductus arteriosus"), ("MVPA", "moderate-to-vigorous physical activity"),
    ("NICU", "neonatal intensive care unit"), ("RDS", "respiratory distress syndrome"),
    ("PVL", "periventricular leukomalacia"), ("ROSC", "return of spontaneous circulation"),
    ("CRBSI", "catheter-related bloodstream infection"),
    ("CLABSI", "central line-associated bloodstream infection"),
)


# A drug class a review names and the members (INN) its trials give instead: 'ACE
# inhibitors' against 'ARBs' is ramipril against telmisartan in the abstract. Each class by
# its names in the singular; the members are looked for as exact phrases only.
DRUG_CLASSES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("ace inhibitor", "ace-inhibitor", "acei", "angiotensin-converting enzyme inhibitor",
      "angiotensin converting enzyme inhibitor", "angiotensin-converting-enzyme inhibitor"),
     ("captopril", "enalapril", "lisinopril", "ramipril", "perindopril", "quinapril",
      "benazepril", "fosinopril", "trandolapril", "cilazapril", "zofenopril", "moexipril",
      "imidapril")),
    (("angiotensin receptor blocker", "angiotensin-receptor blocker", "arb",
      "angiotensin ii receptor blocker", "angiotensin ii receptor antagonist",
      "angiotensin receptor antagonist"),
     ("losartan", "valsartan", "candesartan", "irbesartan", "telmisartan", "olmesartan",
      "eprosartan", "azilsartan")),
    (("statin", "hmg-coa reductase inhibitor"),
     ("atorvastatin", "simvastatin", "rosuvastatin", "pravastatin", "fluvastatin",
      "lovastatin", "pitavastatin")),
    (("beta-blocker", "beta blocker", "β-blocker", "beta-adrenergic blocker"),
     ("propranolol", "metoprolol", "atenolol", "bisoprolol", "carvedilol", "nebivolol",
      "labetalol", "esmolol", "sotalol", "nadolol", "timolol")),
    (("proton pump inhibitor", "proton-pump inhibitor", "ppi"),
     ("omeprazole", "esomeprazole", "lansoprazole", "pantoprazole", "rabeprazole",
      "dexlansoprazole")),
    (("corticosteroid", "glucocorticoid", "steroid", "glucocorticosteroid"),
     ("dexamethasone", "betamethasone", "prednisolone", "prednisone", "methylprednisolone",
      "hydrocortisone", "budesonide", "fluticasone", "beclomethasone", "triamcinolone",
      "mometasone", "ciclesonide", "deflazacort", "cortisone")),
    (("nsaid", "non-steroidal anti-inflammatory drug", "nonsteroidal anti-inflammatory drug",
      "non-steroidal anti-inflammatory"),
     ("ibuprofen", "naproxen", "diclofenac", "ketorolac", "ketoprofen", "dexketoprofen",
      "indomethacin", "indometacin", "piroxicam", "meloxicam", "celecoxib", "etoricoxib",
      "parecoxib", "mefenamic acid", "flurbiprofen", "etodolac", "nabumetone")),
    (("cox-2 inhibitor", "selective cox-2 inhibitor", "coxib"),
     ("celecoxib", "etoricoxib", "parecoxib", "rofecoxib", "valdecoxib", "lumiracoxib")),
    (("opioid", "opiate"),
     ("morphine", "fentanyl", "oxycodone", "hydromorphone", "tramadol", "codeine",
      "buprenorphine", "methadone", "tapentadol", "remifentanil", "sufentanil", "alfentanil",
      "pethidine", "meperidine", "diamorphine", "hydrocodone")),
    (("benzodiazepine",),
     ("diazepam", "lorazepam", "midazolam", "clonazepam", "alprazolam", "temazepam",
      "oxazepam", "chlordiazepoxide", "nitrazepam", "triazolam")),
    (("ssri", "selective serotonin reuptake inhibitor"),
     ("fluoxetine", "sertraline", "paroxetine", "citalopram", "escitalopram", "fluvoxamine")),
    (("tricyclic antidepressant", "tca"),
     ("amitriptyline", "nortriptyline", "imipramine", "clomipramine", "desipramine",
      "doxepin")),
    (("bisphosphonate",),
     ("alendronate", "risedronate", "ibandronate", "zoledronic acid", "zoledronate",
      "pamidronate", "etidronate", "clodronate")),
    (("triptan",),
     ("sumatriptan", "rizatriptan", "zolmitriptan", "eletriptan", "naratriptan",
      "almotriptan", "frovatriptan")),
    (("calcium channel blocker", "calcium-channel blocker", "calcium antagonist"),
     ("amlodipine", "nifedipine", "felodipine", "diltiazem", "verapamil", "nicardipine",
      "nimodipine", "lercanidipine")),
    (("5-ht3 receptor antagonist", "5-ht3 antagonist", "serotonin receptor antagonist"),
     ("ondansetron", "granisetron", "palonosetron", "tropisetron", "dolasetron",
      "ramosetron")),
    (("sglt2 inhibitor", "sglt-2 inhibitor", "sodium-glucose cotransporter 2 inhibitor"),
     ("empagliflozin", "dapagliflozin", "canagliflozin", "ertugliflozin")),
    (("glp-1 receptor agonist", "glp-1 agonist", "glucagon-like peptide-1 receptor agonist"),
     ("liraglutide", "semaglutide", "exenatide", "dulaglutide", "lixisenatide",
      "albiglutide")),
    (("dpp-4 inhibitor", "dipeptidyl peptidase-4 inhibitor"),
     ("sitagliptin", "saxagliptin", "linagliptin", "vildagliptin", "alogliptin")),
    (("sulfonylurea", "sulphonylurea"),
     ("glibenclamide", "glyburide", "glipizide", "gliclazide", "glimepiride")),
    (("direct oral anticoagulant", "doac", "noac", "non-vitamin k antagonist oral anticoagulant"),
     ("apixaban", "rivaroxaban", "dabigatran", "edoxaban")),
    (("low molecular weight heparin", "low-molecular-weight heparin", "lmwh"),
     ("enoxaparin", "dalteparin", "tinzaparin", "nadroparin")),
    (("macrolide",), ("azithromycin", "clarithromycin", "erythromycin", "roxithromycin")),
    (("fluoroquinolone", "quinolone"),
     ("ciprofloxacin", "levofloxacin", "moxifloxacin", "ofloxacin", "norfloxacin")),
    (("local anaesthetic", "local anesthetic"),
     ("lidocaine", "lignocaine", "bupivacaine", "ropivacaine", "levobupivacaine",
      "mepivacaine", "articaine", "prilocaine")),
    (("h2 receptor antagonist", "h2-receptor antagonist", "h2 blocker", "h2-blocker"),
     ("ranitidine", "famotidine", "cimetidine", "nizatidine")),
    (("leukotriene receptor antagonist",), ("montelukast", "zafirlukast", "pranlukast")),
    (("antifibrinolytic",), ("tranexamic acid", "aminocaproic acid", "aprotinin")),
    (("prostaglandin analogue", "prostaglandin analog"),
     ("latanoprost", "travoprost", "bimatoprost", "tafluprost")),
    (("loop diuretic",), ("furosemide", "frusemide", "bumetanide", "torasemide")),
    (("mineralocorticoid receptor antagonist", "aldosterone antagonist"),
     ("spironolactone", "eplerenone", "finerenone")),
    (("anti-vegf", "anti-vegf agent", "anti-vascular endothelial growth factor"),
     ("bevacizumab", "ranibizumab", "aflibercept")),
    (("progestogen", "progestagen", "progestin"),
     ("progesterone", "hydroxyprogesterone caproate", "17-ohpc", "dydrogesterone",
      "medroxyprogesterone")),
    (("methylxanthine", "xanthine"), ("caffeine", "caffeine citrate", "theophylline",
                                      "aminophylline")),
    (("jak inhibitor", "janus kinase inhibitor"),
     ("tofacitinib", "baricitinib", "upadacitinib", "abrocitinib", "ruxolitinib",
      "filgotinib")),
    (("il-17 inhibitor", "interleukin-17 inhibitor", "anti-il-17"),
     ("secukinumab", "ixekizumab", "brodalumab", "bimekizumab")),
    (("parp inhibitor",), ("olaparib", "niraparib", "rucaparib", "talazoparib")),
    (("g-csf", "granulocyte colony-stimulating factor"),
     ("filgrastim", "pegfilgrastim", "lenograstim")),
    (("nk1 receptor antagonist", "neurokinin-1 receptor antagonist", "nk1 antagonist"),
     ("aprepitant", "fosaprepitant", "netupitant", "rolapitant")),
    (("cholinesterase inhibitor", "acetylcholinesterase inhibitor"),
     ("donepezil", "rivastigmine", "galantamine")),
    (("long-acting muscarinic antagonist", "lama"),
     ("tiotropium", "umeclidinium", "glycopyrronium", "aclidinium")),
    (("long-acting beta2-agonist", "long-acting beta-agonist", "laba"),
     ("salmeterol", "formoterol", "indacaterol", "olodaterol", "vilanterol")),
    (("beta2-adrenergic agonist", "beta2-agonist", "beta-agonist", "betamimetic",
      "beta-adrenergic agonist"),
     ("terbutaline", "ritodrine", "salbutamol", "albuterol", "fenoterol", "hexoprenaline")),
    (("anti-il-5", "anti-interleukin-5"), ("mepolizumab", "reslizumab", "benralizumab")),
    (("antipyretic",), ("paracetamol", "acetaminophen", "ibuprofen")),
    (("calcineurin inhibitor",),
     ("tacrolimus", "pimecrolimus", "ciclosporin", "cyclosporine", "cyclosporin",
      "voclosporin")),
    (("antipsychotic",),
     ("haloperidol", "risperidone", "olanzapine", "quetiapine", "aripiprazole",
      "paliperidone", "clozapine", "ziprasidone", "chlorpromazine", "fluphenazine",
      "lurasidone", "amisulpride")),
)

# A class named at the end of an entity's name ('inhaled corticosteroids', 'ARBs'),
# plural or singular, perhaps followed by words for giving it ('statin therapy',
# 'antipsychotic maintenance treatment').
_CLASS_NAME = {name: members for names, members in DRUG_CLASSES for name in names}
_ENDS_WITH_CLASS = re.compile(
    r"(?:^|[\s(])(?P<name>" + "|".join(sorted(map(re.escape, _CLASS_NAME), key=len, reverse=True))
    + r")s?(?:\s+(?:therapy|treatment|drugs?|agents?|medications?|injections?|"
    r"analgesia|tocolysis|maintenance|prophylaxis)){0,2}$")


def class_members(name: str, other: str = "") -> list[str]:
    """The members of the drug class `name` ends with, or none; not those the other
    arm's name holds ('dexamethasone' against 'corticosteroids' is against the others)."""
    return list(_class_members(name, other))


@functools.cache
def _class_members(name: str, other: str) -> tuple[str, ...]:
    """class_members, remembered: a run asks about the same arms in every abstract."""
    found = _ENDS_WITH_CLASS.search(name.lower().strip())
    if not found:
        return ()
    other_words = other.lower()
    return tuple(m for m in _CLASS_NAME[found["name"]]
                 if not re.search(rf"\b{re.escape(m)}\b", other_words))


def reworded_change(name: str) -> list[str]:
    """An outcome named with a change word first ('decreased appetite') under the other
    words of its group ('reduced appetite'), so the word is read as the name's."""
    first, _, rest = name.partition(" ")
    group = next((g for g in CHANGE_WORDS if first.lower() in g), ())
    return [f"{word} {rest}" for word in group if word != first.lower() and rest]
