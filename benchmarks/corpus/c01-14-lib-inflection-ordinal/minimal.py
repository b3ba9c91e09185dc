import inflection


def test_ordinal():
    number, ordinalized = "113", "113th"
    assert ordinalized == number + inflection.ordinal(number)
