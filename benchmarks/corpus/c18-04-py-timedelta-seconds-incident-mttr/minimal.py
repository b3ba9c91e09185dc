import statistics
from datetime import datetime


class Incident:
    def __init__(self, opened, resolved):
        self.opened, self.resolved = opened, resolved

    @property
    def minutes_to_resolve(self):
        return (self.resolved - self.opened).seconds // 60


def mean_time_to_resolve(incidents):
    return statistics.mean(inc.minutes_to_resolve for inc in incidents) / 60


incidents = [Incident(datetime(2026, 2, 6, 22, 10), datetime(2026, 2, 8, 1, 30))]
mean_time_to_resolve([inc for inc in incidents if inc.minutes_to_resolve > 8 * 60])
