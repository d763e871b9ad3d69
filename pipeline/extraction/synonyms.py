"""Other names of a term: the two names of one outcome a review and a trial use ('preterm
birth' / 'delivery before 37 weeks'), and the short forms abstracts use undefined ('CRP').
mentions.py looks for an entity under each."""

from __future__ import annotations

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
) for a, b in ((one, other), (other, one)))

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
)

