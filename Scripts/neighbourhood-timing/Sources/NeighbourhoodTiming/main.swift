import Neighbourhood

Timing.run()
