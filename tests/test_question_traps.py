"""Sentences that name every word of a question without answering it yes, asked end to end.

Each trap sentence sits in an abstract of a small SciFact-shaped workspace; its trap
question must never be a green yes nor a green no, and must name the rule that holds the
answer back. Its control question, which the same sentence does answer, must still be a
green yes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engine.api import OpenWorkspace, ask, open_workspace, route_json
from engine.text.sentences import sentence_texts
from present.views import banner
from tests.workspaces import sentence_workspace

# name: (sentence, trap question, the rule that withholds it, control question or None)
TRAPS = {
    "unlike": (
        "Metformin, unlike aspirin, lowered the incidence of colorectal adenoma.",
        "Does aspirin lower the incidence of colorectal adenoma?", "set-aside",
        "Does metformin lower the incidence of colorectal adenoma?",
    ),
    "compared-with": (
        "Exercise lowered fasting glucose compared with diet alone.",
        "Does diet alone lower fasting glucose?", "set-aside",
        "Does exercise lower fasting glucose compared with diet alone?",
    ),
    "rather-than": (
        "Sleep deprivation, rather than caffeine, impaired working memory in students.",
        "Does caffeine impair working memory in students?", "set-aside",
        "Does sleep deprivation impair working memory in students?",
    ),
    "but-not": (
        "Orlistat reduced body weight at 6 weeks but not at 12 months.",
        "Does orlistat reduce body weight at 12 months?", "set-aside",
        "Does orlistat reduce body weight at 6 weeks?",
    ),
    "without": (
        "Metformin reduced cardiovascular events in patients without kidney disease.",
        "Does metformin reduce cardiovascular events in patients with kidney disease?",
        "set-aside",
        "Does metformin reduce cardiovascular events in patients without kidney disease?",
    ),
    "other-clause": (
        "Low-dose alcohol reduced cardiac mortality, whereas high-dose alcohol increased "
        "cardiac mortality.",
        "Does high-dose alcohol reduce cardiac mortality?", "other-clause",
        "Does low-dose alcohol reduce cardiac mortality?",
    ),
    "p-value": (
        "Vitamin D reduced falls in nursing home residents (P = .34).",
        "Does vitamin D reduce falls in nursing home residents?", "not-significant", None,
    ),
    "interval": (
        "Statin use lowered the risk of stroke (hazard ratio, 0.91; 95% CI, 0.78-1.06).",
        "Does statin use lower the risk of stroke?", "not-significant", None,
    ),
    "significant": (
        "Vitamin K lowered the risk of hip fracture (hazard ratio, 0.61; 95% CI, 0.45-0.82).",
        None, None, "Does vitamin K lower the risk of hip fracture?",
    ),
    "exception-of": (
        "With the exception of ezetimibe, all lipid drugs reduced coronary events.",
        "Does ezetimibe reduce coronary events?", "set-aside", None,
    ),
    "no-more-than": (
        "Homeopathy improved symptoms no more than placebo.",
        "Does homeopathy improve symptoms?", "dropped", None,
    ),
    "would": (
        "Our model predicts that a sugar tax would reduce obesity prevalence.",
        "Does a sugar tax reduce obesity prevalence?", "hedge", None,
    ),
    "roles-turned-around": (
        "Chronic pain predicted later depression in adolescents.",
        "Does depression predict later chronic pain in adolescents?", "order",
        "Does chronic pain predict later depression in adolescents?",
    ),
    "deficiency": (
        "SIRT1 deficiency increased hepatic steatosis in mice.",
        "Does SIRT1 increase hepatic steatosis in mice?", "lost",
        "Does SIRT1 deficiency increase hepatic steatosis in mice?",
    ),
    "inhibition-of": (
        "Inhibition of mTOR decreased tumour growth in xenografts.",
        "Does mTOR decrease tumour growth in xenografts?", "lost",
        "Does inhibition of mTOR decrease tumour growth in xenografts?",
    ),
    "some": (
        "Some patients improved after statin therapy.",
        "Do patients improve after statin therapy?", "partial",
        "Do some patients improve after statin therapy?",
    ),
    "in-part-of-the-trials": (
        "Acupuncture reduced pain in 3 of 10 trials.",
        "Does acupuncture reduce pain?", "partial", None,
    ),
    "combined-with": (
        "Ezetimibe, when combined with simvastatin, reduced LDL cholesterol.",
        "Does ezetimibe reduce LDL cholesterol?", "condition",
        "Does ezetimibe combined with simvastatin reduce LDL cholesterol?",
    ),
    "in-the-absence-of": (
        "In the absence of insulin, glucagon increased hepatic glucose output in dogs.",
        "Does glucagon increase hepatic glucose output in dogs?", "condition",
        "Does glucagon increase hepatic glucose output in dogs in the absence of insulin?",
    ),
    "per-protocol": (
        "Calcium supplements reduced hip fractures in older women among participants who "
        "adhered to treatment.",
        "Do calcium supplements reduce hip fractures in older women?", "condition",
        "Do calcium supplements reduce hip fractures in older women among participants who "
        "adhered to treatment?",
    ),
    "although-not-significant": (
        "Lithium reduced suicide attempts, although the difference did not reach statistical "
        "significance.",
        "Does lithium reduce suicide attempts?", "taken-back", None,
    ),
    "as-did-placebo": (
        "Omeprazole reduced ulcer bleeding, as did placebo.",
        "Does omeprazole reduce ulcer bleeding?", "taken-back", None,
    ),
    "not-replicated": (
        "Vitamin A supplementation reduced child mortality in earlier trials, a finding not "
        "replicated in recent trials.",
        "Does vitamin A supplementation reduce child mortality?", "taken-back", None,
    ),
    "not-sustained": (
        "The reduction in blood pressure with salt restriction was not sustained.",
        "Does salt restriction reduce blood pressure?", "taken-back", None,
    ),
    "not-seen-elsewhere": (
        "Hormone therapy lowered stroke risk in men, an effect not seen in women.",
        None, None, "Does hormone therapy lower stroke risk in men?",
    ),
    "worded-not-significant": (
        "Zinc shortened cold duration (not significant).",
        "Does zinc shorten cold duration?", "not-significant", None,
    ),
    "tended-to": (
        "Metformin tended to reduce body weight in adolescents.",
        "Does metformin reduce body weight in adolescents?", "hedge", None,
    ),
    "expected-to": (
        "Exercise was expected to reduce fatigue in cancer survivors.",
        "Does exercise reduce fatigue in cancer survivors?", "hedge", None,
    ),
    "prevented-the-decline": (
        "Denosumab prevented the decline in bone mineral density.",
        "Does denosumab reduce bone mineral density?", "direction", None,
    ),
    "no-more-than-an-active-drug": (
        "Atorvastatin did not lower LDL cholesterol more than rosuvastatin did.",
        "Does atorvastatin lower LDL cholesterol?", "compared", None,
    ),
    "not-further": (
        "Mortality was not reduced further by adding clopidogrel to aspirin.",
        "Does aspirin reduce mortality?", "compared", None,
    ),
    "not-all": (
        "Not all patients with migraine responded to triptans.",
        "Do patients with migraine respond to triptans?", "partial", None,
    ),
    "not-surprising": (
        "It is not surprising that smoking increases lung cancer risk.",
        "Does smoking increase lung cancer risk?", "framed", None,
    ),
    "did-not-fail": (
        "Antibiotics did not fail to cure streptococcal pharyngitis.",
        "Do antibiotics cure streptococcal pharyngitis?", "framed", None,
    ),
    "but-did-thereafter": (
        "Insulin did not lower glucose in the first hour, but did thereafter.",
        "Does insulin lower glucose?", "other-clause", None,
    ),
    "associated-with": (
        "Coffee consumption was associated with reduced liver cancer risk.",
        "Does coffee consumption reduce liver cancer risk?", "association",
        "Is coffee consumption associated with reduced liver cancer risk?",
    ),
    "not-against-placebo": (
        "Fish oil lowered triglycerides relative to baseline but not relative to placebo.",
        "Does fish oil lower triglycerides?", "dropped", None,
    ),
    "except-in": (
        "Vitamin C had no effect on cold incidence, except in marathon runners.",
        "Does vitamin C affect cold incidence in marathon runners?", "set-aside", None,
    ),
    "post-hoc": (
        "In a post hoc analysis, spironolactone reduced hospitalisation for heart failure.",
        "Does spironolactone reduce hospitalisation for heart failure?", "condition", None,
    ),
    "given-early": (
        "When given within 3 hours, alteplase improved functional outcome after stroke.",
        "Does alteplase improve functional outcome after stroke?", "condition", None,
    ),
    "up-to": (
        "Statins reduced LDL cholesterol by up to 50%.",
        "Do statins reduce LDL cholesterol by 50%?", "exact",
        "Do statins reduce LDL cholesterol by up to 50%?",
    ),
    "reversed-the-increase": (
        "Naloxone reversed the increase in respiratory depression caused by fentanyl.",
        "Does naloxone increase respiratory depression?", "direction", None,
    ),
    "thought-to": (
        "Omega-3 fatty acids are thought to reduce depressive symptoms.",
        "Do omega-3 fatty acids reduce depressive symptoms?", "hedge", None,
    ),
    "may-not": (
        "Vitamin E may not prevent cataracts in older adults.",
        "Does vitamin E prevent cataracts in older adults?", "hedge", None,
    ),
    "mixed-directions": (
        "Surgery was superior to physiotherapy for pain but inferior for function.",
        "Is surgery superior to physiotherapy for function?", "direction",
        "Is surgery superior to physiotherapy for pain?",
    ),
    "bound-turned": (
        "Zoster vaccine reduced shingles incidence in adults over 70 years.",
        "Does zoster vaccine reduce shingles incidence in adults under 70 years?", "exact",
        "Does zoster vaccine reduce shingles incidence in adults over 70 years?",
    ),
    "no-overall-yes-in-women": (
        "Aspirin did not reduce stroke overall, but it did in women.",
        "Does aspirin reduce stroke in women?", "other-clause", None,
    ),
    "no-said-elsewhere": (
        "Ribavirin alone did not clear hepatitis C, but ribavirin plus interferon did.",
        "Does ribavirin plus interferon clear hepatitis C?", "other-clause", None,
    ),
    "a-myth": (
        "It is a myth that probiotics reduce diarrhoea in children.",
        "Do probiotics reduce diarrhoea in children?", "doubted", None,
    ),
    "idea-is-a-myth": (
        "The idea that coffee prevents type 2 diabetes is a myth.",
        "Does coffee prevent type 2 diabetes?", "doubted", None,
    ),
    "few-studies-have-shown": (
        "Few studies have shown that acupuncture relieves migraine.",
        "Does acupuncture relieve migraine?", "doubted", None,
    ),
    "no-study-has-shown": (
        "No study has shown that fluoride lowers IQ in children.",
        "Does fluoride lower IQ in children?", "doubted", None,
    ),
    "no-doubt": (
        "There is no doubt that asbestos causes mesothelioma.",
        "Does asbestos cause mesothelioma?", "framed", None,
    ),
    "none-serious": (
        "None of the side effects of ibuprofen were serious.",
        "Does ibuprofen have side effects?", "quality", None,
    ),
    "rather-than-the-direction": (
        "Caffeine increased rather than reduced anxiety in adolescents.",
        "Does caffeine reduce anxiety in adolescents?", "direction", None,
    ),
    "second-subject": (
        "Melatonin improved sleep quality and modafinil reduced reaction time.",
        "Does melatonin reduce reaction time?", "other-clause",
        "Does modafinil reduce reaction time?",
    ),
    "did-little-to": (
        "Physiotherapy did little to reduce chronic back pain.",
        "Does physiotherapy reduce chronic back pain?", "hedge", None,
    ),
    "hardly": (
        "Glucosamine hardly relieved knee pain.",
        "Does glucosamine relieve knee pain?", "hedge", None,
    ),
    "should": (
        "Lactulose should reduce hepatic encephalopathy.",
        "Does lactulose reduce hepatic encephalopathy?", "hedge", None,
    ),
    "in-vitro": (
        "Ivermectin inhibited SARS-CoV-2 replication in vitro.",
        "Does ivermectin inhibit SARS-CoV-2 replication?", "condition",
        "Does ivermectin inhibit SARS-CoV-2 replication in vitro?",
    ),
    "in-2-of-10-patients": (
        "Fenofibrate reduced triglycerides in 2 of 10 patients.",
        "Does fenofibrate reduce triglycerides?", "partial", None,
    ),
    "in-a-minority": (
        "Rituximab reduced disease activity in a minority of patients.",
        "Does rituximab reduce disease activity?", "partial", None,
    ),
    "from-for-to": (
        "Colchicine reduced the rate of recurrence from 32% to 17%.",
        "Does colchicine reduce the rate of recurrence to 32%?", "exact",
        "Does colchicine reduce the rate of recurrence to 17%?",
    ),
    "mutations-in": (
        "Mutations in TP53 increase sarcoma risk.",
        "Does TP53 increase sarcoma risk?", "lost",
        "Do mutations in TP53 increase sarcoma risk?",
    ),
    "next-sentence-takes-back": (
        "Ezetimibe lowered LDL cholesterol in older adults. However, this reduction was not "
        "statistically significant.",
        "Does ezetimibe lower LDL cholesterol in older adults?", "next-sentence", None,
    ),
    "next-sentence-explains-away": (
        "Tea drinking was associated with lower dementia risk. This association disappeared "
        "after adjustment for education.",
        "Is tea drinking associated with lower dementia risk?", "next-sentence", None,
    ),
    "next-sentence-keeps-it": (
        "Green tea was associated with lower stroke risk. This association was not explained "
        "by smoking.",
        None, None, "Is green tea associated with lower stroke risk?",
    ),
    "split-by-scope": (
        "Prasugrel increased bleeding in men but decreased bleeding in women.",
        "Does prasugrel increase bleeding?", "condition",
        "Does prasugrel increase bleeding in men?",
    ),
    "actor-only-after-than": (
        "Mortality was higher with placebo than with tocilizumab.",
        "Does tocilizumab reduce mortality?", "set-aside", None,
    ),
    "who-tolerated": (
        "Nintedanib slowed lung function decline in patients who tolerated it.",
        "Does nintedanib slow lung function decline?", "condition", None,
    ),
    "only-added": (
        "Dapagliflozin reduced hospitalisation for heart failure.",
        "Does only dapagliflozin reduce hospitalisation for heart failure?", "exact",
        "Does dapagliflozin reduce hospitalisation for heart failure?",
    ),
    "superlative-added": (
        "Semaglutide was an effective treatment for obesity.",
        "Is semaglutide the most effective treatment for obesity?", "exact",
        "Is semaglutide an effective treatment for obesity?",
    ),
    "relative-clause-of-another": (
        "Sirolimus is an inhibitor of mTOR, which inhibits autophagy.",
        "Does sirolimus inhibit autophagy?", "other-clause", None,
    ),
    "word-only-in-a-denying-clause": (
        "Icosapent ethyl reduced arrhythmias in men; women were not studied.",
        "Does icosapent ethyl reduce arrhythmias in women?", "other-clause",
        "Does icosapent ethyl reduce arrhythmias in men?",
    ),
    "patients-believe": (
        "Many patients believe that glucosamine slows cartilage loss.",
        "Does glucosamine slow cartilage loss?", "hedge", None,
    ),
    "designed-to-show": (
        "The trial was designed to show that varenicline reduces relapse.",
        "Does varenicline reduce relapse?", "hedge", None,
    ),
    "reports-not-confirmed": (
        "Previous reports that melatonin prevents delirium were not confirmed.",
        "Does melatonin prevent delirium?", "doubted", None,
    ),
    "less-than-an-active-drug": (
        "Cytisine was less effective than varenicline for smoking cessation.",
        "Is cytisine effective for smoking cessation?", "direction", None,
    ),
    "but-not-another-kind": (
        "Pembrolizumab improved progression-free survival but not overall survival.",
        "Does pembrolizumab improve survival?", "condition",
        "Does pembrolizumab improve progression-free survival?",
    ),
    "variance-of": (
        "Valproate reduced the variance of mood scores.",
        "Does valproate reduce mood scores?", "attribute",
        "Does valproate reduce the variance of mood scores?",
    ),
    "decline-in": (
        "Tai chi reduced the decline in gait speed.",
        "Does tai chi reduce gait speed?", "attribute", None,
    ),
    "figure-of-another-scope": (
        "The RSV vaccine reduced hospitalisation by 80% in adults but by 30% in infants.",
        "Does the RSV vaccine reduce hospitalisation by 80% in infants?", "exact",
        "Does the RSV vaccine reduce hospitalisation by 80% in adults?",
    ),
    "not-serious": (
        "Isotretinoin did not cause serious depressive symptoms.",
        "Does isotretinoin cause depressive symptoms?", "quality", None,
    ),
    "not-until": (
        "Duloxetine did not relieve neuropathic pain until the second week.",
        "Does duloxetine relieve neuropathic pain?", "quality", None,
    ),
    "cannot-be-excluded": (
        "Glyphosate cannot be excluded as a cause of lymphoma.",
        "Does glyphosate cause lymphoma?", "framed", None,
    ),
    "not-after-adjustment": (
        "Yoga reduced depression scores before but not after adjustment for baseline severity.",
        "Does yoga reduce depression scores?", "taken-back", None,
    ),
    "with-the-outcome": (
        "Statins increased the risk of death in patients with diabetes.",
        "Do statins increase the risk of diabetes?", "population",
        "Do statins increase the risk of death?",
    ),
    "withdrawal-of": (
        "Withdrawal of corticosteroids increased relapse.",
        "Do corticosteroids increase relapse?", "lost", None,
    ),
    "resistance-to": (
        "Resistance to cisplatin increased ovarian tumour growth.",
        "Does cisplatin increase ovarian tumour growth?", "lost", None,
    ),
    "antibodies-against": (
        "Antibodies against tumour necrosis factor reduced psoriasis severity.",
        "Does tumour necrosis factor reduce psoriasis severity?", "lost", None,
    ),
    "used-to": (
        "Metoprolol is used to reduce heart rate.",
        "Does metoprolol reduce heart rate?", "hedge", None,
    ),
    "not-by-but-by": (
        "Serum ferritin was not lowered by placebo but by deferasirox.",
        "Does deferasirox lower serum ferritin?", "other-clause", None,
    ),
    "although-the-asked-one": (
        "Empagliflozin did not reduce stroke, although it reduced heart failure admissions.",
        "Does empagliflozin reduce heart failure admissions?", "other-clause", None,
    ),
    "not-alone": (
        "Ezetimibe did not lower cardiovascular events alone.",
        "Does ezetimibe lower cardiovascular events?", "quality", None,
    ),
    "not-versus-an-active-drug": (
        "Dapagliflozin did not reduce HbA1c compared with glipizide.",
        "Does dapagliflozin reduce HbA1c?", "compared", None,
    ),
    "risk-factor-in-a-population": (
        "Obesity was a risk factor for mortality in patients with asthma.",
        "Is obesity a risk factor for asthma?", "population",
        "Is obesity a risk factor for mortality?",
    ),
    "drawn-across-but": (
        "Running is a risk factor for knee injury but protects against heart disease.",
        "Is running a risk factor for heart disease?", "other-clause", None,
    ),
    "dose-mid-sentence": (
        "Alcohol at low doses raised HDL cholesterol.",
        "Does alcohol raise HDL cholesterol?", "condition",
        "Does alcohol at low doses raise HDL cholesterol?",
    ),
    "predicted-to": (
        "Sugar taxes are predicted to reduce obesity.",
        "Do sugar taxes reduce obesity?", "hedge", None,
    ),
    "by-nothing": (
        "Topiramate reduced binge eating by 0% in obese adults.",
        "Does topiramate reduce binge eating?", "not-significant", None,
    ),
    "ratio-the-other-way": (
        "Rosiglitazone reduced cardiac mortality (HR 1.20, 95% CI 1.05-1.37).",
        "Does rosiglitazone reduce cardiac mortality?", "direction", None,
    ),
    "stopped-for-futility": (
        "Lithium slowed functional decline in ALS, but the trial was stopped for futility.",
        "Does lithium slow functional decline in ALS?", "doubted", None,
    ),
    "evidence-is-mixed": (
        "The evidence is mixed, but acupuncture reduced hot flushes in breast cancer survivors.",
        "Does acupuncture reduce hot flushes in breast cancer survivors?", "doubted", None,
    ),
    "prone-to-bias": (
        "Chondroitin reduced knee pain, but the studies were prone to bias.",
        "Does chondroitin reduce knee pain?", "doubted", None,
    ),
    "no-at-a-time-point": (
        "Bupropion did not reduce cigarette craving at 1 week.",
        "Does bupropion reduce cigarette craving?", "quality", None,
    ),
    "no-as-expected": (
        "Zinc did not shorten common colds as expected.",
        "Does zinc shorten common colds?", "framed", None,
    ),
    "no-in-those-who": (
        "Naltrexone did not reduce alcohol craving in patients who did not attend counselling.",
        "Does naltrexone reduce alcohol craving?", "condition", None,
    ),
    "no-beside-its-ratio": (
        "Spironolactone did not reduce heart failure admissions (HR 0.70, 95% CI 0.55-0.89).",
        "Does spironolactone reduce heart failure admissions?", "taken-back", None,
    ),
    "in-no-patients": (
        "Colchicine reduced pericarditis recurrence in no patients.",
        "Does colchicine reduce pericarditis recurrence?", "dropped", None,
    ),
    "control-changed-more": (
        "Metformin reduced body weight by 5% versus 6% with placebo in obese adults.",
        "Does metformin reduce body weight in obese adults?", "direction", None,
    ),
    "ratio-named-after": (
        "Dapagliflozin reduced mortality in heart failure (HR for death 1.30).",
        "Does dapagliflozin reduce mortality in heart failure?", "direction", None,
    ),
    "ineffective-in": (
        "Orlistat was ineffective in reducing body weight in adolescents.",
        "Does orlistat reduce body weight in adolescents?", "dropped", None,
    ),
    "not-ineffective": (
        "Melatonin was not ineffective in shortening sleep latency in older adults.",
        "Does melatonin shorten sleep latency in older adults?", "framed", None,
    ),
    "protects-against": (
        "Raloxifene protects against the loss of bone density in postmenopausal women.",
        "Does raloxifene cause loss of bone density in postmenopausal women?", "direction",
        "Does raloxifene protect against loss of bone density in postmenopausal women?",
    ),
    "expected-it-to": (
        "We expected liraglutide to reduce appetite in obese adolescents.",
        "Does liraglutide reduce appetite in obese adolescents?", "hedge", None,
    ),
    "borderline-significant": (
        "Empagliflozin lowered uric acid in gout, a difference of borderline significance.",
        "Does empagliflozin lower uric acid in gout?", "not-significant", None,
    ),
    "little-effect": (
        "Chromium picolinate had little effect on insulin sensitivity in obese adults.",
        "Does chromium picolinate affect insulin sensitivity in obese adults?",
        "not-significant", None,
    ),
    "averted-the-expected": (
        "Roflumilast averted the expected decline in lung function in smokers.",
        "Does roflumilast cause decline in lung function in smokers?", "direction", None,
    ),
    "ratio-adjusted-between": (
        "Colchicine reduced mortality after infarction (HR, adjusted for age, 1.30).",
        "Does colchicine reduce mortality after infarction?", "direction", None,
    ),
    "tendency-to": (
        "Pioglitazone showed a tendency to reduce liver fat in adolescents.",
        "Does pioglitazone reduce liver fat in adolescents?", "hedge", None,
    ),
    "short-of-significance": (
        "Ezetimibe lowered carotid plaque volume, falling just short of significance.",
        "Does ezetimibe lower carotid plaque volume?", "not-significant", None,
    ),
    "no-with-a-trend": (
        "Zinc did not shorten the common cold in children, though a trend was noted.",
        "Does zinc shorten the common cold in children?", "taken-back", None,
    ),
    "p-value-in-words": (
        "Orlistat reduced weight in obese adults, with a P value of 0.08.",
        "Does orlistat reduce weight in obese adults?", "not-significant", None,
    ),
    "p-value-closing-the-sentence": (
        "Canagliflozin lowered uric acid in gout, P = 0.08.",
        "Does canagliflozin lower uric acid in gout?", "not-significant", None,
    ),
    "ratio-adjusted-without-a-comma": (
        "Atorvastatin reduced mortality in the elderly (hazard ratio adjusted for confounders "
        "1.40).",
        "Does atorvastatin reduce mortality in the elderly?", "direction", None,
    ),
    "rate-higher-than-placebo": (
        "Ticagrelor reduced mortality (7% vs 6% with placebo) in patients with stroke.",
        "Does ticagrelor reduce mortality in patients with stroke?", "direction", None,
    ),
    "rate-lower-than-placebo": (
        "Clopidogrel reduced mortality in patients with angina (5% vs 7% with placebo).",
        None, None, "Does clopidogrel reduce mortality in patients with angina?",
    ),
    "arms-that-could-be-either": (
        "Sibutramine reduced body weight (5% vs 6% with placebo).",
        "Does sibutramine reduce body weight?", "direction", None,
    ),
    "underpowered": (
        "Vitamin C reduced colds in an underpowered trial.",
        "Does vitamin C reduce colds?", "doubted", None,
    ),
    "no-insufficiently-powered": (
        "Amantadine did not reduce fatigue in multiple sclerosis, but the trial was "
        "insufficiently powered.",
        "Does amantadine reduce fatigue in multiple sclerosis?", "doubted", None,
    ),
    "adequately-powered": (
        "Nicotinamide reduced skin cancer in an adequately powered trial.",
        None, None, "Does nicotinamide reduce skin cancer?",
    ),
    "no-at-listed-time-points": (
        "Liraglutide did not reduce weight at 6 or 12 months.",
        "Does liraglutide reduce weight?", "quality", None,
    ),
    "later-refuted": (
        "Echinacea shortened colds in 1995, but this finding was later refuted.",
        "Does echinacea shorten colds?", "doubted", None,
    ),
    "post-hoc-at-the-end": (
        "Heparin reduced mortality in sepsis in a post hoc analysis.",
        "Does heparin reduce mortality in sepsis?", "condition", None,
    ),
    "one-kind-but-not-another": (
        "Hormone therapy reduced coronary events in observational but not randomised studies.",
        "Does hormone therapy reduce coronary events?", "condition", None,
    ),
    "against-another-drug": (
        "Prasugrel reduced stent thrombosis versus clopidogrel.",
        "Does prasugrel reduce stent thrombosis?", "against-another",
        "Does prasugrel reduce stent thrombosis versus clopidogrel?",
    ),
    "superior-to-another-drug": (
        "Edoxaban was superior to warfarin in reducing embolism.",
        "Does edoxaban reduce embolism?", "against-another", None,
    ),
    "against-usual-care": (
        "Apixaban reduced bleeding compared with usual care.",
        None, None, "Does apixaban reduce bleeding?",
    ),
    "control-named-by-a-negation": (
        "Dabigatran reduced stroke compared with patients not given dabigatran.",
        "Does dabigatran reduce stroke?", "group-negated", None,
    ),
    "then-the-other-way-by-year": (
        "Rosuvastatin reduced cardiac events in 2019 but increased them in 2020.",
        "Does rosuvastatin reduce cardiac events?", "condition", None,
    ),
    "lost-after-a-bare-but": (
        "Exenatide reduced HbA1c at 6 months but this difference was lost at 12 months.",
        "Does exenatide reduce HbA1c?", "taken-back", None,
    ),
    "confined-to": (
        "Bisoprolol reduced mortality in heart failure, an effect confined to patients under 65.",
        "Does bisoprolol reduce mortality in heart failure?", "condition", None,
    ),
    "significant-p-value-in-words": (
        "Losartan lowered blood pressure in diabetics (P value < 0.001).",
        None, None, "Does losartan lower blood pressure in diabetics?",
    ),
    "more-than-expected": (
        "Semaglutide reduced appetite more than expected.",
        None, None, "Does semaglutide reduce appetite?",
    ),
    "no-seen-in-those-not-taking-it": (
        "Reduced gout flares were seen in patients not taking allopurinol.",
        "Does allopurinol reduce gout flares?", "group-negated", None,
    ),
    "stopping-it": (
        "Stopping omeprazole reduced pneumonia in the elderly.",
        "Does omeprazole reduce pneumonia in the elderly?", "lost", None,
    ),
    "avoidance-of-it": (
        "Gluten avoidance reduced fatigue in irritable bowel syndrome.",
        "Does gluten reduce fatigue in irritable bowel syndrome?", "lost", None,
    ),
    "dose-reduction-of-it": (
        "Prednisolone dose reduction lowered infection rates in lupus.",
        "Does prednisolone lower infection rates in lupus?", "lost", None,
    ),
    "first-but-not-second": (
        "Lamotrigine reduced seizure frequency in the first but not the second trial.",
        "Does lamotrigine reduce seizure frequency?", "condition", None,
    ),
    "not-shown-to": (
        "Cranberry juice was not shown to prevent urinary infections in older women.",
        "Does cranberry juice prevent urinary infections in older women?", "doubted", None,
    ),
    "former-members": (
        "Varenicline reduced relapse in former smokers.",
        "Does varenicline reduce relapse in smokers?", "unmarked",
        "Does varenicline reduce relapse in former smokers?",
    ),
    "to-then-from": (
        "Tranexamic acid lowered trauma mortality to 31% from 28%.",
        "Does tranexamic acid lower trauma mortality?", "direction", None,
    ),
    "in-mice-only": (
        "Resveratrol extended lifespan in obese mice.",
        "Does resveratrol extend lifespan?", "condition",
        "Does resveratrol extend lifespan in obese mice?",
    ),
    "in-a-case-report": (
        "Ivermectin cleared scabies crusts in a case report of an elderly man.",
        "Does ivermectin clear scabies crusts?", "doubted", None,
    ),
    "in-two-thirds-of-patients": (
        "Botulinum toxin reduced migraine days in two thirds of patients.",
        "Does botulinum toxin reduce migraine days?", "partial", None,
    ),
    "in-all-but-one-trial": (
        "Acupressure reduced nausea in all but one trial.",
        "Does acupressure reduce nausea?", "partial", None,
    ),
    "risk-of-another-in-it": (
        "Tacrolimus increased the risk of bleeding in cirrhosis.",
        "Does tacrolimus increase the risk of cirrhosis?", "population",
        "Does tacrolimus increase the risk of bleeding in cirrhosis?",
    ),
    "no-risk-of-another-in-it": (
        "Sirolimus did not increase the risk of infection in psoriasis.",
        "Does sirolimus increase the risk of psoriasis?", "population", None,
    ),
    "in-a-pilot-study": (
        "Ketamine reduced suicidal ideation in a pilot study.",
        "Does ketamine reduce suicidal ideation?", "doubted", None,
    ),
    "residual-confounding": (
        "Coffee lowered liver fibrosis, though residual confounding cannot be excluded.",
        "Does coffee lower liver fibrosis?", "doubted", None,
    ),
    "needed-to-confirm": (
        "Probiotics shortened colic episodes; larger trials are needed to confirm this.",
        "Do probiotics shorten colic episodes?", "doubted", None,
    ),
    "after-excluding": (
        "Vasopressin lowered septic shock mortality after excluding early deaths.",
        "Does vasopressin lower septic shock mortality?", "condition", None,
    ),
    "no-beyond-another-drug": (
        "Empagliflozin did not lower albuminuria beyond the effect of losartan.",
        "Does empagliflozin lower albuminuria?", "compared", None,
    ),
    "not-known-whether": (
        "It is not known whether melatonin shortens jet lag in children.",
        "Does melatonin shorten jet lag in children?", "condition", None,
    ),
    "no-in-vitro": (
        "Fluvoxamine did not reduce viral replication in vitro.",
        "Does fluvoxamine reduce viral replication?", "condition", None,
    ),
    "no-when-given-late": (
        "Alteplase did not reduce disability in stroke when given late.",
        "Does alteplase reduce disability in stroke?", "condition", None,
    ),
    "users-had-lower": (
        "Statin users had lower rates of dementia.",
        "Do statins lower rates of dementia?", "association", None,
    ),
    "predicted-lower": (
        "Vitamin D sufficiency predicted lower fracture risk in older women.",
        "Does vitamin D sufficiency lower fracture risk in older women?", "association", None,
    ),
    "raises-the-possibility": (
        "This raises the possibility that lithium slows cognitive decline.",
        "Does lithium slow cognitive decline?", "hedge", None,
    ),
    "probably": (
        "Montelukast probably reduces asthma exacerbations in preschool children.",
        "Does montelukast reduce asthma exacerbations in preschool children?", "hedge", None,
    ),
    "under-investigation": (
        "Psilocybin is under investigation for reducing treatment-resistant depression.",
        "Does psilocybin reduce treatment-resistant depression?", "hedge", None,
    ),
    "in-our-model": (
        "Congestion pricing reduces traffic deaths in our model.",
        "Does congestion pricing reduce traffic deaths?", "condition", None,
    ),
    "lower-than-with-another": (
        "Patients on erenumab had fewer migraine days than those on topiramate.",
        "Does erenumab reduce migraine days?", "against-another", None,
    ),
    "children-of-the-group-asked": (
        "Children of mothers given iodine had higher IQ scores.",
        "Does iodine raise IQ scores in mothers?", "population",
        "Do children of mothers given iodine have higher IQ scores?",
    ),
    "not-true-that-not": (
        "It is not true that zinc does not shorten colds in adults.",
        "Does zinc shorten colds in adults?", "framed", None,
    ),
    "followed-by": (
        "Bariatric surgery was followed by lower rates of diabetes.",
        "Does bariatric surgery lower rates of diabetes?", "association", None,
    ),
    "to-the-placebo-level": (
        "Pregabalin reduced pain scores to the level seen with placebo.",
        "Does pregabalin reduce pain scores?", "not-significant", None,
    ),
    "from-a-figure-to-the-same": (
        "Varenicline reduced relapse rates from 20% to 20%.",
        "Does varenicline reduce relapse rates?", "not-significant", None,
    ),
    "trend-beside-a-trend": (
        "Hip fracture rates fell over the decade in which alendronate use rose.",
        "Does alendronate reduce hip fracture rates?", "trend",
        "Did hip fracture rates fall over the decade?",
    ),
    "trend-the-wrong-way": (
        "Migraine attacks rose as propranolol use fell.",
        "Does propranolol increase migraine attacks?", "trend", None,
    ),
    "parents-of-children": (
        "Inhaled budesonide reduced anxiety in the parents of children with croup.",
        "Does inhaled budesonide reduce anxiety in children with croup?", "population",
        "Does inhaled budesonide reduce anxiety in the parents of children with croup?",
    ),
    "physicians-treating": (
        "Modafinil reduced the fatigue of nurses treating leukaemia.",
        "Does modafinil reduce fatigue in leukaemia?", "population", None,
    ),
    "cut-by-a-negative": (
        "Permethrin cut scabies recurrence by -4%.",
        "Does permethrin cut scabies recurrence?", "direction", None,
    ),
    "increased-by-a-negative": (
        "Clozapine increased psychotic relapses by -4%.",
        "Does clozapine reduce psychotic relapses?", "direction", None,
    ),
    "interval-naming-no-measure": (
        "Tranexamic acid reduced postpartum haemorrhage deaths (95% CI 0.8 to 1.1).",
        "Does tranexamic acid reduce postpartum haemorrhage deaths?", "not-significant", None,
    ),
    "as-effective-as-placebo": (
        "Rituximab was as effective as placebo in reducing lupus flares.",
        "Does rituximab reduce lupus flares?", "dropped", None,
    ),
    "uncontrolled-study": (
        "Acupuncture reduced tinnitus loudness in an uncontrolled study.",
        "Does acupuncture reduce tinnitus loudness?", "doubted", None,
    ),
    "three-patients": (
        "Sirolimus shrank lymphatic malformations in 3 patients.",
        "Does sirolimus shrink lymphatic malformations?", "doubted", None,
    ),
    "in-most-analyses": (
        "Mirtazapine reduced nausea scores in most analyses.",
        "Does mirtazapine reduce nausea scores?", "partial", None,
    ),
    "projected-outcome": (
        "Screening colonoscopy reduced projected colorectal cancer deaths.",
        "Does screening colonoscopy reduce colorectal cancer deaths?", "attribute", None,
    ),
    "cost-effectiveness-model": (
        "Varicella vaccination reduced shingles cases in a cost-effectiveness model.",
        "Does varicella vaccination reduce shingles cases?", "condition", None,
    ),
    "no-trial-has-tested-whether": (
        "No trial has tested whether fluvoxamine shortens long covid symptoms.",
        "Does fluvoxamine shorten long covid symptoms?", "doubted", None,
    ),
    "not-to-zero": (
        "Eculizumab did not reduce haemolysis episodes to zero.",
        "Does eculizumab reduce haemolysis episodes?", "quality", None,
    ),
    "no-at-one-dose": (
        "Apixaban did not reduce embolic strokes at the 2.5 mg dose.",
        "Does apixaban reduce embolic strokes?", "quality", None,
    ),
    "no-in-mice-only": (
        "Nicotinamide riboside did not improve grip strength in mice.",
        "Does nicotinamide riboside improve grip strength?", "condition", None,
    ),
    "ability-debated": (
        "Dabigatran's ability to prevent stroke in atrial flutter is debated.",
        "Does dabigatran prevent stroke in atrial flutter?", "doubted", None,
    ),
    "guidelines-recommend": (
        "Guidelines recommend tamsulosin to expel ureteric stones.",
        "Does tamsulosin expel ureteric stones?", "hedge", None,
    ),
    "approved-for": (
        "Esketamine is approved for relieving treatment-resistant depression.",
        "Does esketamine relieve treatment-resistant depression?", "hedge", None,
    ),
    "dramatically-asked": (
        "Finerenone reduced kidney failure events.",
        "Does finerenone dramatically reduce kidney failure events?", "exact",
        "Does finerenone reduce kidney failure events?",
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenWorkspace]:
    findings = [sentence_texts(sentence) for sentence, *_ in TRAPS.values()]
    opened = open_workspace(sentence_workspace(tmp_path_factory.mktemp("traps"), findings))
    yield opened
    opened.close()


def _cited(name: str) -> str:
    return f"zk:scifact:{100 + list(TRAPS).index(name)}"


@pytest.mark.parametrize("name", [n for n, t in TRAPS.items() if t[1]], ids=str)
def test_a_trap_question_is_never_a_green_yes_or_no(workspace: OpenWorkspace, name: str) -> None:
    _, question, rule, _ = TRAPS[name]
    assert question is not None
    out = ask(workspace, question).to_dict()
    assert out["cited"] == [_cited(name)], out["trace"][-1]["reason"]
    assert out["decision"]["label"] != "ANSWER"
    assert out["stance"]["reading"] not in ("yes", "no")
    assert out["stance"]["overstated"] == rule


@pytest.mark.parametrize("name", [n for n, t in TRAPS.items() if t[3]], ids=str)
def test_the_control_the_same_sentence_answers_is_a_green_yes(
    workspace: OpenWorkspace, name: str
) -> None:
    control = TRAPS[name][3]
    assert control is not None
    out = ask(workspace, control).to_dict()
    assert out["cited"] == [_cited(name)]
    assert out["decision"]["label"] == "ANSWER" and out["stance"]["reading"] == "yes"


def test_a_withheld_no_is_named_as_a_no_and_kept_when_routed_again(
    workspace: OpenWorkspace,
) -> None:
    result = ask(workspace, TRAPS["not-surprising"][1] or "")
    assert result.decision is not None and result.decision.withheld_no
    assert result.stance is not None and result.stance.brief.startswith("not a no: ")
    assert "not a no to the question" in banner(result).text
    assert "not a yes" not in banner(result).text
    again = route_json(json.dumps(result.payload), workspace=workspace.workspace.root)
    assert again.withheld_no and again.detail.startswith("hedged: not a no to what was asked")
    yes_held = ask(workspace, TRAPS["tended-to"][1] or "")
    assert yes_held.decision is not None and not yes_held.decision.withheld_no
    assert "not a yes to the question" in banner(yes_held).text
