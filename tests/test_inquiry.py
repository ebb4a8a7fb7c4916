import pytest

from engine.reading.aims import asks

CASES = [
    ("To determine whether statin use is associated with reduced hip fracture risk.", "", True),
    ("To systematically review the evidence about diagnostic LP techniques.", "", True),
    ("We aimed to assess the effects of walking down a busy street.", "", True),
    ("Here we examined the effects of oral chenodeoxycholic acid on BAT activity.", "", True),
    ("We hypothesized that cell-free mtDNA levels would be associated with mortality.", "", True),
    ("The aim of this study was to compare two dosing schedules.", "", True),
    ("This study was designed to test the vaccine in adults.", "", True),
    ("Does the drug reduce mortality?", "", True),
    ("Patients were randomly assigned to receive INO or placebo for 4 hours.", "DESIGN", True),
    ("Patients were enrolled in 12 centres.", "DESIGN, SETTING, AND PARTICIPANTS", True),
    ("We examined 300 patients and found that the drug lowered mortality.", "", False),
    ("Here we show that neurons adjust their structure.", "", False),
    ("We propose DGKK as a major risk gene for hypospadias.", "", False),
    ("Statin use was associated with fewer hip fractures.", "", False),
    ("Statin use was associated with fewer hip fractures.", "RESULTS", False),
    ("Mortality fell by 20% in the treated group.", "METHODS AND RESULTS", False),
    # What was known before the study is its background, not its finding.
    ("LDL cholesterol has a causal role in cardiovascular disease.", "BACKGROUND", True),
    ("Statins lower cholesterol.", "OBJECTIVE", True),
    ("This review will focus on the tumor immune microenvironment.", "", True),
    ("Here we review how PD-1 blockade works in melanoma.", "", True),
    ("Tissue samples were obtained in cases of melanoma and in controls.", "", True),
    ("Serum levels were measured at baseline and at 12 weeks.", "", True),
    ("Serum levels were measured and were significantly lower in cases.", "", False),
    ("Structural Homeostasis: Adjustments of Dendritic Arbor Geometry", "", True),
    ("RESULTS", "", True),
    ("To date, no trial has shown a benefit.", "", False),
    ("Participants reporting symptoms showed lower scores.", "PARTICIPANTS", False),
]


@pytest.mark.parametrize(
    ("text", "section", "expected"),
    CASES,
    ids=[f"{'asks' if e else 'states'}-{i}" for i, (_, _, e) in enumerate(CASES)],
)
def test_aims_questions_and_methods_ask_and_findings_state(
    text: str, section: str, expected: bool
) -> None:
    assert asks(text, section=section) is expected
